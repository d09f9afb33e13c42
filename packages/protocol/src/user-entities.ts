// User entities (docs/protocol.md#user-entities): museum's store of small encrypted records of the photos
// clients (location tags, people, smart albums, memories, contacts), one wrapped key per type, synced by
// diff per type. The server never opens them: only the type, the id's form and the sizes are checked.
import * as z from 'zod/mini';

import { diffLimitParam, entitySchema } from './authenticator.ts';
import { b64, micros, microsParam, userID } from './common.ts';
import { limits } from './limits.ts';

/** The types museum accepts (`person` is deprecated there, still accepted). */
export const userEntityTypes = ['location', 'person', 'cgroup', 'smart_album', 'memory', 'contact'] as const;
export type UserEntityType = (typeof userEntityTypes)[number];

const typeMessage = `must be one of ${userEntityTypes.join(', ')}`;
export const userEntityTypeSchema = z.enum(userEntityTypes, typeMessage);

/**
 * An entity id: the server's `<type>_<22 characters>`, a smart album's `sa_<userID>_<collectionID>` made by
 * the client, or an older UUID; nothing else reaches the database.
 */
export const userEntityID = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]{1,128}$/, 'must be an entity id (1-128 of A-Z a-z 0-9 _ -)'));

const keyField = b64(undefined, { min: 1, max: limits.maxUserEntityKeyFieldB64 });
const entityData = b64(undefined, { min: 1, max: limits.maxUserEntityDataB64 });

/** POST /user-entity/key. `header` is the nonce of the secretbox that wraps the type's key. */
export const createUserEntityKeyRequestSchema = z.object({
  type: userEntityTypeSchema,
  encryptedKey: keyField,
  header: keyField,
});
export type CreateUserEntityKeyRequest = z.infer<typeof createUserEntityKeyRequestSchema>;

/** GET /user-entity/key?type=. */
export const userEntityKeyQuerySchema = z.object({ type: userEntityTypeSchema });

/** GET /user-entity/key: the type's wrapped key. */
export const userEntityKeySchema = z.object({
  userID,
  type: userEntityTypeSchema,
  encryptedKey: z.string(),
  header: z.string(),
  createdAt: micros,
});
export type UserEntityKey = z.infer<typeof userEntityKeySchema>;

/** What a create and an update both send: the type and the sealed data. */
const entityWrite = { type: userEntityTypeSchema, encryptedData: entityData, header: keyField };

/** POST /user-entity/entity. `id` only where the client names it (a smart album's, required there). */
export const createUserEntityRequestSchema = z.object({ ...entityWrite, id: z.optional(z.nullable(userEntityID)) });
export type CreateUserEntityRequest = z.infer<typeof createUserEntityRequestSchema>;

/** PUT /user-entity/entity. */
export const updateUserEntityRequestSchema = z.object({ ...entityWrite, id: userEntityID });
export type UpdateUserEntityRequest = z.infer<typeof updateUserEntityRequestSchema>;

/** DELETE /user-entity/entity?id=. */
export const deleteUserEntityQuerySchema = z.object({ id: userEntityID });

/** One entity as the server returns it: an authenticator entity's shape with its type, and ids of any form. */
export const userEntitySchema = z.extend(entitySchema, { id: z.string(), type: userEntityTypeSchema });
export type UserEntity = z.infer<typeof userEntitySchema>;

/** GET /user-entity/entity/diff?type=&sinceTime=&limit=. All three required, as museum binds them. */
export const userEntityDiffQuerySchema = z.object({
  type: userEntityTypeSchema,
  sinceTime: microsParam,
  limit: diffLimitParam,
});
export type UserEntityDiffQuery = z.input<typeof userEntityDiffQuerySchema>;

/** The entities of the type changed after `sinceTime`, oldest change first. */
export const userEntityDiffResponseSchema = z.object({ diff: z.array(userEntitySchema) });
export type UserEntityDiffResponse = z.infer<typeof userEntityDiffResponseSchema>;
