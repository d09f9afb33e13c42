// WebAuthn for the passkey services (docs/protocol.md#passkeys): @simplewebauthn/server with museum's wire
// forms. It makes options and checks responses; whether a ceremony may happen and what it changes is
// services/passkeys.ts's to decide.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';

import type { AssertionCredential, RegistrationCredential } from '@ente/protocol';

/** Museum's order of algorithms: ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA. */
const algorithms = [-7, -35, -36, -257, -258, -259, -37, -38, -39, -8];

/** Where ceremonies may happen: the RP ID and the origins of the accounts app. */
export interface RelyingParty {
  rpID: string;
  origins: string[];
}

/** A stored credential as the ceremonies need it (transports as stored: a comma list). */
export interface KnownCredential {
  credential_id: string;
  transports: string;
}

export async function registrationOptions(
  rp: RelyingParty,
  user: { id: number; email: string },
  existing: readonly KnownCredential[],
  timeoutSeconds: number,
) {
  return generateRegistrationOptions({
    rpName: 'Ente',
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.email,
    userID: userHandle(user.id),
    timeout: timeoutSeconds * 1000,
    attestationType: 'none',
    // An authenticator that already holds one of this account's passkeys is refused by the browser.
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportList(row.transports) })),
    authenticatorSelection: { requireResidentKey: false, userVerification: 'preferred' },
    supportedAlgorithmIDs: algorithms,
  });
}

/** A new credential to store, or the reason the attestation was refused. */
export type RegistrationResult =
  { credential: { id: string; publicKey: string; signCount: number; transports: string } } | { refused: string };

export async function verifyRegistration(
  rp: RelyingParty,
  body: RegistrationCredential,
  expectedChallenge: string,
): Promise<RegistrationResult> {
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: {
        id: unpadded(body.id),
        rawId: unpadded(body.id),
        type: 'public-key',
        response: {
          attestationObject: unpadded(body.response.attestationObject),
          clientDataJSON: unpadded(body.response.clientDataJSON),
          transports: body.response.transports,
        },
        clientExtensionResults: {},
      },
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
      supportedAlgorithmIDs: algorithms,
    });
  } catch (error) {
    return { refused: messageOf(error) };
  }
  if (!verified.verified) return { refused: 'not verified' };
  const { credential } = verified.registrationInfo;
  return {
    credential: {
      id: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: credential.counter,
      transports: (body.response.transports ?? []).join(','),
    },
  };
}

export async function authenticationOptions(
  rp: RelyingParty,
  credentials: readonly KnownCredential[],
  timeoutSeconds: number,
) {
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: credentials.map((row) => ({ id: row.credential_id, transports: transportList(row.transports) })),
    userVerification: 'preferred',
    timeout: timeoutSeconds * 1000,
  });
}

/** The credential ID an assertion names, in the stored form (base64url without padding). */
export function assertedCredentialID(body: AssertionCredential): string {
  return unpadded(body.id);
}

/** Whether an assertion's user handle, when it sends one, is this user's. */
export function isUserHandleOf(body: AssertionCredential, userID: number): boolean {
  const handle = body.response.userHandle;
  return !handle || unpadded(handle) === Buffer.from(userHandle(userID)).toString('base64url');
}

/** An assertion's outcome: the new sign count, or why it was refused. */
export type AuthenticationResult =
  | { newCount: number }
  | {
      refused: string;
      /** Every other check passed: only the sign count did not grow (a cloned or restored authenticator). */
      signCountOnly: boolean;
    };

/** Checks an assertion against a stored credential. */
export async function verifyAuthentication(
  rp: RelyingParty,
  body: AssertionCredential,
  expectedChallenge: string,
  credential: KnownCredential & { public_key: string; sign_count: number | string },
): Promise<AuthenticationResult> {
  const id = unpadded(body.id);
  const handle = body.response.userHandle;
  const verify = (storedCount: number) =>
    verifyAuthenticationResponse({
      response: {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          authenticatorData: unpadded(body.response.authenticatorData),
          clientDataJSON: unpadded(body.response.clientDataJSON),
          signature: unpadded(body.response.signature),
          ...(handle ? { userHandle: unpadded(handle) } : {}),
        },
        clientExtensionResults: {},
      },
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpID,
      credential: {
        id: credential.credential_id,
        publicKey: new Uint8Array(Buffer.from(credential.public_key, 'base64url')),
        counter: storedCount,
        transports: transportList(credential.transports),
      },
      requireUserVerification: false,
    });
  const storedCount = Number(credential.sign_count);
  let verified;
  try {
    verified = await verify(storedCount);
  } catch (error) {
    // The library checks the sign count before the signature: only an assertion that passes every other
    // check (checked again without the stored count) is said to come from a cloned or restored authenticator.
    const signCountOnly = storedCount > 0 && (await verify(0).catch(() => undefined))?.verified === true;
    return { refused: messageOf(error), signCountOnly };
  }
  if (!verified.verified) return { refused: 'not verified', signCountOnly: false };
  return { newCount: verified.authenticationInfo.newCounter };
}

/** The user handle WebAuthn knows the account by: its ID as 8 bytes, big-endian (museum's). */
function userHandle(userID: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(userID));
  return bytes;
}

function transportList(stored: string): AuthenticatorTransport[] {
  return stored.split(',').filter((transport) => transport !== '') as AuthenticatorTransport[];
}

/** Base64url without its padding (museum accepts both). */
function unpadded(value: string): string {
  return value.replace(/=+$/, '');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown';
}
