// Passkeys as a second factor (docs/protocol.md#passkeys): the accounts token, the management routes
// and their registration ceremony, the login-time ceremony and passkey recovery. Binary values of the
// WebAuthn payloads are base64url without padding (padded input is accepted, as museum strips `=`).
import * as z from 'zod/mini';

import { b64, b64url, micros, plainText, text, userID, uuid } from './common.ts';
import { limits } from './limits.ts';
import { twoFactorAuthorizationResponseSchema } from './two-factor.ts';

/** Base64url, padding optional, at most `max` characters (WebAuthn payloads). */
export function b64urlLoose(max: number) {
  return z.string().check(
    z.maxLength(max),
    z.regex(/^[A-Za-z0-9_-]*={0,2}$/, 'invalid base64url encoding'),
    z.refine<string>((value) => value.replace(/=+$/, '').length % 4 !== 1, 'invalid base64url encoding'),
  );
}

/** UTF-8 length of a string, without a TextEncoder allocation per check. */
function utf8Length(value: string): number {
  let length = 0;
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    length += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return length;
}

/**
 * A passkey's name: 1 to 256 bytes of UTF-8 (museum counts bytes), well-formed, with no control
 * characters (a name is shown in lists; museum would store either).
 */
export const passkeyName = z.string().check(
  z.maxLength(limits.maxPasskeyNameBytes),
  plainText(),
  z.refine<string>((value) => {
    const length = utf8Length(value);
    return length >= 1 && length <= limits.maxPasskeyNameBytes;
  }, `friendlyName must be between 1 and ${limits.maxPasskeyNameBytes} characters`),
);

/** A passkey login session ID: 32 random bytes, base64url with padding (44 characters). */
export const passkeySessionID = b64url(32);

/** GET /users/accounts-token (private). */
export const accountsTokenResponseSchema = z.object({
  accountsToken: z.string().check(z.minLength(1)),
  accountsUrl: z.string(),
});
export type AccountsTokenResponse = z.infer<typeof accountsTokenResponseSchema>;

/** A passkey as listed; `lastUsedAt` (its last sign-in) is ours, absent from museum and before a first use. */
export const passkeySchema = z.object({
  id: uuid,
  userID,
  friendlyName: z.string(),
  createdAt: micros,
  lastUsedAt: z.optional(micros),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** GET /passkeys (accounts token): `passkeys` is null, not [], when there are none (museum's shape). */
export const listPasskeysResponseSchema = z.object({
  accountsUrl: z.string(),
  passkeys: z.nullable(z.array(passkeySchema)),
});
export type ListPasskeysResponse = z.infer<typeof listPasskeysResponseSchema>;

/** PATCH /passkeys/:id?friendlyName= and the query of registration/finish. */
export const passkeyIDParamsSchema = z.object({ passkeyID: uuid });
export const renamePasskeyQuerySchema = z.object({ friendlyName: passkeyName });
export const finishRegistrationQuerySchema = z.object({ friendlyName: passkeyName, sessionID: uuid });

const credentialDescriptor = z.looseObject({
  type: z.literal('public-key'),
  id: z.string(),
  transports: z.optional(z.array(z.string())),
});

/** The creation options the server hands out (binary values base64url); the browser call needs the rest as is. */
export const creationOptionsSchema = z.looseObject({
  rp: z.looseObject({ name: z.string(), id: z.optional(z.string()) }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.looseObject({ type: z.literal('public-key'), alg: z.int() })),
  timeout: z.optional(z.int().check(z.positive())),
  excludeCredentials: z.optional(z.array(credentialDescriptor)),
});
export type CreationOptions = z.infer<typeof creationOptionsSchema>;

/** POST /passkeys/registration/begin (accounts token, no body). */
export const beginRegistrationResponseSchema = z.object({
  options: z.object({ publicKey: creationOptionsSchema }),
  sessionID: uuid,
});
export type BeginRegistrationResponse = z.infer<typeof beginRegistrationResponseSchema>;

const credentialID = b64urlLoose(1366); // WebAuthn caps credential IDs at 1,023 bytes

/** POST /passkeys/registration/finish?friendlyName=&sessionID= body: the browser's credential. */
export const registrationCredentialSchema = z.object({
  id: credentialID,
  rawId: credentialID,
  type: z.literal('public-key'),
  response: z.object({
    attestationObject: b64urlLoose(65536),
    clientDataJSON: b64urlLoose(8192),
    transports: z.optional(z.array(text(32)).check(z.maxLength(16))),
  }),
});
export type RegistrationCredential = z.infer<typeof registrationCredentialSchema>;

/** POST /users/two-factor/passkeys/begin (public). */
export const beginPasskeyLoginRequestSchema = z.object({ sessionID: passkeySessionID });

export const requestOptionsSchema = z.looseObject({
  challenge: z.string(),
  timeout: z.optional(z.int().check(z.positive())),
  rpId: z.optional(z.string()),
  allowCredentials: z.optional(z.array(credentialDescriptor)),
  userVerification: z.optional(z.string()),
});
export type RequestOptions = z.infer<typeof requestOptionsSchema>;

export const beginPasskeyLoginResponseSchema = z.object({
  options: z.object({ publicKey: requestOptionsSchema }),
  ceremonySessionID: uuid,
});
export type BeginPasskeyLoginResponse = z.infer<typeof beginPasskeyLoginResponseSchema>;

/** POST /users/two-factor/passkeys/finish?sessionID=&ceremonySessionID=&clientPackage= (public). */
export const finishPasskeyLoginQuerySchema = z.object({
  sessionID: passkeySessionID,
  ceremonySessionID: uuid,
  clientPackage: z.optional(text(128)),
});
export const assertionCredentialSchema = z.object({
  id: credentialID,
  rawId: credentialID,
  type: z.literal('public-key'),
  response: z.object({
    authenticatorData: b64urlLoose(8192),
    clientDataJSON: b64urlLoose(8192),
    signature: b64urlLoose(2048),
    userHandle: z.optional(z.nullable(b64urlLoose(128))),
  }),
});
export type AssertionCredential = z.infer<typeof assertionCredentialSchema>;

/** GET /users/two-factor/passkeys/get-token?sessionID= (public); the answer is that of finish. */
export const passkeyTokenQuerySchema = z.object({ sessionID: passkeySessionID });
export const passkeyLoginResponseSchema = twoFactorAuthorizationResponseSchema;

/** GET /users/two-factor/recovery-status (private). */
export const recoveryStatusResponseSchema = z.object({
  allowAdminReset: z.boolean(),
  isPasskeyRecoveryEnabled: z.boolean(),
});
export type RecoveryStatusResponse = z.infer<typeof recoveryStatusResponseSchema>;

/**
 * POST /users/two-factor/passkeys/configure-recovery (private): `secret` is b64 of 32 random bytes;
 * the user's copy is those bytes in a secretbox under the recovery key (48 bytes, 24-byte nonce).
 */
export const configurePasskeyRecoveryRequestSchema = z.object({
  secret: b64(32),
  userSecretCipher: b64(48),
  userSecretNonce: b64(24),
});
export type ConfigurePasskeyRecoveryRequest = z.infer<typeof configurePasskeyRecoveryRequestSchema>;
