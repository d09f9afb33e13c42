// Authenticator endpoints (docs/protocol.md#authenticator). `ifUpdatedAt` (µs) on PUT and DELETE is this project's
// compatible extension: when present and not the row's current updatedAt, the answer is 409 CONFLICT.
import * as z from 'zod/mini';

import { b64, micros, microsParam, userID, uuid } from './common.ts';
import { limits } from './limits.ts';

/** GET /authenticator/key. `header` is the 24-byte secretbox nonce of the wrapped key. */
export const authenticatorKeyResponseSchema = z.object({
  userID,
  encryptedKey: z.string(),
  header: z.string(),
  createdAt: micros,
});
export type AuthenticatorKeyResponse = z.infer<typeof authenticatorKeyResponseSchema>;

/** POST /authenticator/key. */
export const createAuthenticatorKeyRequestSchema = z.object({ encryptedKey: b64(48), header: b64(24) });
export type CreateAuthenticatorKeyRequest = z.infer<typeof createAuthenticatorKeyRequestSchema>;

const entityData = b64(undefined, { max: limits.maxEntityDataB64, min: 1 });
const entityHeader = b64(24); // the secretstream header

/** POST /authenticator/entity. */
export const createEntityRequestSchema = z.object({ encryptedData: entityData, header: entityHeader });
export type CreateEntityRequest = z.infer<typeof createEntityRequestSchema>;

/** PUT /authenticator/entity. */
export const updateEntityRequestSchema = z.object({
  id: uuid,
  encryptedData: entityData,
  header: entityHeader,
  ifUpdatedAt: z.optional(micros),
});
export type UpdateEntityRequest = z.infer<typeof updateEntityRequestSchema>;

/** DELETE /authenticator/entity?id=&ifUpdatedAt=. */
export const deleteEntityQuerySchema = z.object({ id: uuid, ifUpdatedAt: z.optional(microsParam) });
export type DeleteEntityQuery = z.input<typeof deleteEntityQuerySchema>;

/** One entity as the server returns it; deleted rows have null data and header. */
export const entitySchema = z.object({
  id: uuid,
  userID,
  encryptedData: z.nullable(z.string()),
  header: z.nullable(z.string()),
  isDeleted: z.boolean(),
  createdAt: micros,
  updatedAt: micros,
});
export type Entity = z.infer<typeof entitySchema>;

const limitMessage = `limit must be between ${limits.minDiffLimit} and ${limits.maxDiffLimit}`;

/** A diff page's `limit` in a query string: 1–5000, as museum's entity diffs take it. */
export const diffLimitParam = z.pipe(
  z.pipe(z.string().check(z.regex(/^\d{1,9}$/, limitMessage)), z.transform(Number)),
  z.int().check(z.minimum(limits.minDiffLimit, limitMessage), z.maximum(limits.maxDiffLimit, limitMessage)),
);

/** GET /authenticator/entity/diff?sinceTime=&limit=. Both required. */
export const entityDiffQuerySchema = z.object({ sinceTime: microsParam, limit: diffLimitParam });
export type EntityDiffQuery = z.input<typeof entityDiffQuerySchema>;

export const entityDiffResponseSchema = z.object({ diff: z.array(entitySchema), timestamp: micros });
export type EntityDiffResponse = z.infer<typeof entityDiffResponseSchema>;
