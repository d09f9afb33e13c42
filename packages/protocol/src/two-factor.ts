// Two-factor (TOTP) endpoints (docs/protocol.md#two-factor).
import * as z from 'zod/mini';

import { b64, b64url, sixDigitCode, text } from './common.ts';
import { keyAttributesResponseSchema } from './key-attributes.ts';

export const twoFactorStatusResponseSchema = z.object({ status: z.boolean() });
export type TwoFactorStatusResponse = z.infer<typeof twoFactorStatusResponseSchema>;

/** `secretCode` is 32 base32 characters (20 bytes); `qrCode` a b64 PNG of the otpauth URI. */
export const twoFactorSetupResponseSchema = z.object({
  secretCode: z.string().check(z.regex(/^[A-Z2-7]{32}$/)),
  qrCode: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponseSchema>;

/**
 * POST /users/two-factor/enable. The two encrypted fields are Box(base64-decode(secretCode)) under the
 * recovery key: 24 bytes + 16 MAC.
 */
export const enableTwoFactorRequestSchema = z.object({
  code: sixDigitCode,
  encryptedTwoFactorSecret: b64(40),
  twoFactorSecretDecryptionNonce: b64(24),
});
export type EnableTwoFactorRequest = z.input<typeof enableTwoFactorRequestSchema>;

const twoFactorSessionID = b64url(32);

/** POST /users/two-factor/verify (public). */
export const verifyTwoFactorRequestSchema = z.object({ sessionID: twoFactorSessionID, code: sixDigitCode });
export type VerifyTwoFactorRequest = z.input<typeof verifyTwoFactorRequestSchema>;

export const twoFactorTypes = ['totp', 'passkey'] as const;
export type TwoFactorType = (typeof twoFactorTypes)[number];

/** GET /users/two-factor/recover?sessionID=&twoFactorType= (public). */
export const twoFactorRecoverQuerySchema = z.object({
  sessionID: twoFactorSessionID,
  twoFactorType: z.optional(z.enum(twoFactorTypes)),
});
export const twoFactorRecoverResponseSchema = z.object({
  encryptedSecret: z.string(),
  secretDecryptionNonce: z.string(),
});
export type TwoFactorRecoverResponse = z.infer<typeof twoFactorRecoverResponseSchema>;

/** POST /users/two-factor/remove (public): `secret` is the recovered secretCode. */
export const removeTwoFactorRequestSchema = z.object({
  sessionID: twoFactorSessionID,
  secret: text(256, { min: 1 }),
  twoFactorType: z.optional(z.enum(twoFactorTypes)),
});
export type RemoveTwoFactorRequest = z.infer<typeof removeTwoFactorRequestSchema>;

/** The answer of verify, remove and passkey finish. */
export const twoFactorAuthorizationResponseSchema = z.object({
  id: z.int().check(z.positive()),
  keyAttributes: keyAttributesResponseSchema,
  encryptedToken: z.string(),
});
export type TwoFactorAuthorizationResponse = z.infer<typeof twoFactorAuthorizationResponseSchema>;
