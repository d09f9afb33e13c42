// Passkeys as a second factor (docs/protocol.md#passkeys): the accounts token, the management routes
// and their registration ceremony, the login-time ceremony and passkey recovery. Binary values of the
// WebAuthn payloads are base64url without padding (padded input is accepted, as museum strips `=`).
import { z } from 'zod';

import { b64, b64url, micros, userID, uuid } from './common.ts';
import { limits } from './limits.ts';
import { twoFactorAuthorizationResponseSchema } from './two-factor.ts';

/** Base64url, padding optional, at most `max` characters (WebAuthn payloads). */
export function b64urlLoose(max: number) {
  return z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, 'invalid base64url encoding')
    .refine((value) => value.replace(/=+$/, '').length % 4 !== 1, 'invalid base64url encoding');
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- the point is to refuse control characters
const controlCharacter = /[\u0000-\u001F\u007F-\u009F]/;

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
export const passkeyName = z
  .string()
  .max(limits.maxPasskeyNameBytes)
  .refine((value) => !loneSurrogate.test(value) && !controlCharacter.test(value), 'must be printable text')
  .refine((value) => {
    const length = utf8Length(value);
    return length >= 1 && length <= limits.maxPasskeyNameBytes;
  }, `friendlyName must be between 1 and ${limits.maxPasskeyNameBytes} characters`);

/** A passkey login session ID: 32 random bytes, base64url with padding (44 characters). */
export const passkeySessionID = b64url(32);

/** GET /users/accounts-token (private). */
export const accountsTokenResponseSchema = z.object({ accountsToken: z.string().min(1), accountsUrl: z.string() });
export type AccountsTokenResponse = z.infer<typeof accountsTokenResponseSchema>;

/** A passkey as listed; `lastUsedAt` (its last sign-in) is ours, absent from museum and before a first use. */
export const passkeySchema = z.object({
  id: uuid,
  userID,
  friendlyName: z.string(),
  createdAt: micros,
  lastUsedAt: micros.optional(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** GET /passkeys (accounts token): `passkeys` is null, not [], when there are none (museum's shape). */
export const listPasskeysResponseSchema = z.object({
  accountsUrl: z.string(),
  passkeys: z.array(passkeySchema).nullable(),
});
export type ListPasskeysResponse = z.infer<typeof listPasskeysResponseSchema>;

/** PATCH /passkeys/:id?friendlyName= and the query of registration/finish. */
export const passkeyIDParamsSchema = z.object({ passkeyID: uuid });
export const renamePasskeyQuerySchema = z.object({ friendlyName: passkeyName });
export const finishRegistrationQuerySchema = z.object({ friendlyName: passkeyName, sessionID: uuid });

const credentialDescriptor = z.looseObject({
  type: z.literal('public-key'),
  id: z.string(),
  transports: z.array(z.string()).optional(),
});

/** The creation options the server hands out (binary values base64url); the browser call needs the rest as is. */
export const creationOptionsSchema = z.looseObject({
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.looseObject({ type: z.literal('public-key'), alg: z.number().int() })),
  timeout: z.number().int().positive().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
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
    transports: z.array(z.string().max(32)).max(16).optional(),
  }),
});
export type RegistrationCredential = z.infer<typeof registrationCredentialSchema>;

/** POST /users/two-factor/passkeys/begin (public). */
export const beginPasskeyLoginRequestSchema = z.object({ sessionID: passkeySessionID });

export const requestOptionsSchema = z.looseObject({
  challenge: z.string(),
  timeout: z.number().int().positive().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.string().optional(),
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
  clientPackage: z.string().max(128).optional(),
});
export const assertionCredentialSchema = z.object({
  id: credentialID,
  rawId: credentialID,
  type: z.literal('public-key'),
  response: z.object({
    authenticatorData: b64urlLoose(8192),
    clientDataJSON: b64urlLoose(8192),
    signature: b64urlLoose(2048),
    userHandle: b64urlLoose(128).nullable().optional(),
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
