// SRP endpoints (docs/protocol.md#srp-setup, docs/protocol.md#srp-login). A and B decode to 512 bytes, M1 and M2 to 32.
import * as z from 'zod/mini';

import { b64, email, uuid } from './common.ts';
import { updatedKeyAttributesSchema } from './key-attributes.ts';

const srpPublic = z.pipe(
  z.string().check(z.regex(/^[A-Za-z0-9+/=]*$/, 'invalid base64 encoding'), z.maxLength(1024)),
  b64(512),
);
const srpProof = b64(32);

/** GET /users/srp/attributes?email=. */
export const srpAttributesQuerySchema = z.object({ email });

export const srpAttributesSchema = z.object({
  srpUserID: uuid,
  srpSalt: z.string(),
  memLimit: z.int(),
  opsLimit: z.int(),
  kekSalt: z.string(),
  isEmailMFAEnabled: z.boolean(),
});
export type SrpAttributes = z.infer<typeof srpAttributesSchema>;
export const srpAttributesResponseSchema = z.object({ attributes: srpAttributesSchema });
export type SrpAttributesResponse = z.infer<typeof srpAttributesResponseSchema>;

/** POST /users/srp/setup (auth). */
export const srpSetupRequestSchema = z.object({
  srpUserID: uuid,
  srpSalt: b64(16),
  srpVerifier: b64(512),
  srpA: srpPublic,
});
export type SrpSetupRequest = z.infer<typeof srpSetupRequestSchema>;
export const srpSetupResponseSchema = z.object({ setupID: uuid, srpB: z.string() });
export type SrpSetupResponse = z.infer<typeof srpSetupResponseSchema>;

/** POST /users/srp/complete (auth). */
export const srpCompleteRequestSchema = z.object({ setupID: uuid, srpM1: srpProof });
export type SrpCompleteRequest = z.infer<typeof srpCompleteRequestSchema>;
export const srpCompleteResponseSchema = z.object({ setupID: uuid, srpM2: z.string() });
export type SrpCompleteResponse = z.infer<typeof srpCompleteResponseSchema>;

/** POST /users/srp/update (auth): a password change. `logOutOtherDevices` defaults to true. */
export const srpUpdateRequestSchema = z.object({
  setupID: uuid,
  srpM1: srpProof,
  updatedKeyAttr: updatedKeyAttributesSchema,
  logOutOtherDevices: z.optional(z.boolean()),
});
export type SrpUpdateRequest = z.infer<typeof srpUpdateRequestSchema>;

/** POST /users/srp/create-session (public). */
export const srpCreateSessionRequestSchema = z.object({ srpUserID: uuid, srpA: srpPublic });
export type SrpCreateSessionRequest = z.infer<typeof srpCreateSessionRequestSchema>;
export const srpCreateSessionResponseSchema = z.object({ sessionID: uuid, srpB: z.string() });
export type SrpCreateSessionResponse = z.infer<typeof srpCreateSessionResponseSchema>;

/** POST /users/srp/verify-session (public); answers with the verification response plus srpM2. */
export const srpVerifySessionRequestSchema = z.object({ sessionID: uuid, srpUserID: uuid, srpM1: srpProof });
export type SrpVerifySessionRequest = z.infer<typeof srpVerifySessionRequestSchema>;
