// Account endpoints (docs/protocol.md#e-mail-codes to #sessions-and-logout): e-mail codes, the verification response, account
// details, sessions, e-mail MFA and public keys.
import * as z from 'zod/mini';

import { b64, b64url, email, micros, sixDigitCode, text, userID } from './common.ts';
import { keyAttributesResponseSchema } from './key-attributes.ts';

export const ottPurposes = ['login', 'signup', 'change'] as const;
export type OttPurpose = (typeof ottPurposes)[number];

/** POST /users/ott. `purpose` absent (or "") is the "none" purpose of the resend and recover flows. */
export const sendOttRequestSchema = z.object({
  email,
  purpose: z.pipe(
    z.optional(z.union([z.enum(ottPurposes), z.literal('')])),
    z.transform((value: OttPurpose | '' | undefined) => value || undefined),
  ),
  mobile: z.optional(z.boolean()),
  client: z.optional(text(64)),
});
export type SendOttRequest = z.input<typeof sendOttRequestSchema>;

/** POST /users/verify-email. `source` (referral) is only sent at signup, as `web:<text>`. */
export const verifyEmailRequestSchema = z.object({
  email,
  ott: sixDigitCode,
  source: z.optional(text(256)),
});
export type VerifyEmailRequest = z.input<typeof verifyEmailRequestSchema>;

/**
 * The "verification success" answer of verify-email and srp/verify-session (docs/protocol.md#verification-success). The four
 * session strings are always present ("" when unset); `srpM2` only on srp/verify-session.
 */
export const emailAuthorizationResponseSchema = z.object({
  id: userID,
  keyAttributes: z.optional(keyAttributesResponseSchema),
  encryptedToken: z.optional(z.string()),
  token: z.optional(z.string()),
  passkeySessionID: z.string(),
  accountsUrl: z.string(),
  twoFactorSessionID: z.string(),
  twoFactorSessionIDV2: z.string(),
  srpM2: z.optional(z.string()),
});
export type EmailAuthorizationResponse = z.infer<typeof emailAuthorizationResponseSchema>;

/** POST /users/change-email: the OTT was sent to the new address with purpose "change". */
export const changeEmailRequestSchema = z.object({ email, ott: sixDigitCode });
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;

/** GET /users/session-validity/v2. */
export const sessionValidityResponseSchema = z.object({
  hasSetKeys: z.boolean(),
  keyAttributes: z.optional(keyAttributesResponseSchema),
});
export type SessionValidityResponse = z.infer<typeof sessionValidityResponseSchema>;

/** PUT /users/email-mfa. */
export const setEmailMfaRequestSchema = z.object({ isEnabled: z.boolean() });
export type SetEmailMfaRequest = z.infer<typeof setEmailMfaRequestSchema>;

/** GET /users/public-key?email=. */
export const publicKeyQuerySchema = z.object({ email });
export const publicKeyResponseSchema = z.object({ publicKey: b64(32) });
export type PublicKeyResponse = z.infer<typeof publicKeyResponseSchema>;

/** GET /users/sessions: the calling app's sessions (times in µs). */
export const sessionSchema = z.object({
  token: z.string(),
  creationTime: micros,
  ip: z.string(),
  ua: z.string(),
  prettyUA: z.string(),
  lastUsedTime: micros,
});
export const sessionsResponseSchema = z.object({ sessions: z.array(sessionSchema) });
export type Session = z.infer<typeof sessionSchema>;
export type SessionsResponse = z.infer<typeof sessionsResponseSchema>;

/** DELETE /users/session?token=. */
export const terminateSessionQuerySchema = z.object({ token: b64url(undefined, { max: 128, min: 1 }) });

/** GET /users/details/v2?memoryCount=. */
export const userDetailsQuerySchema = z.object({ memoryCount: z.optional(z.enum(['true', 'false'])) });

export const userDetailsResponseSchema = z.object({
  email: z.string(),
  usage: z.number(),
  fileCount: z.optional(z.number()),
  storageBonus: z.number(),
  subscription: z.looseObject({
    id: z.number(),
    userID: z.number(),
    productID: z.string(),
    storage: z.number(),
    originalTransactionID: z.string(),
    expiryTime: z.number(),
    paymentProvider: z.string(),
    attributes: z.looseObject({}),
    price: z.string(),
    period: z.string(),
  }),
  familyData: z.optional(z.unknown()),
  profileData: z.object({
    canDisableEmailMFA: z.boolean(),
    isEmailMFAEnabled: z.boolean(),
    isTwoFactorEnabled: z.boolean(),
    passkeyCount: z.int(),
  }),
  bonusData: z.looseObject({ storageBonuses: z.array(z.unknown()) }),
});
export type UserDetailsResponse = z.infer<typeof userDetailsResponseSchema>;
