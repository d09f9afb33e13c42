// The user entity rules (docs/protocol.md#user-entities): museum's store of the photos clients' encrypted
// records (location tags, people, smart albums, memories, contacts). One wrapped key per type, posted once
// (the same key again is a success, another one 409); entities of a type need its key. Writes of one user are
// serialised by locking the user's row, and each takes updated_at = max(now, last + 1) on the database clock,
// so updated_at is unique and increasing per user and a diff page can never hide a row. The quota (live
// entities of every type, and their bytes) is counted under that lock, in the transaction that writes. An id
// is looked up among the caller's own entities only: another account's is unknown (404). The quota and the update
// are services/entity-writes.ts's, shared with the authenticator; the queries are db/user-entities.ts's and
// db/entity-stores.ts's.
import { randomInt } from 'node:crypto';

import type { Selectable } from 'kysely';

import type {
  CreateUserEntityKeyRequest,
  CreateUserEntityRequest,
  UpdateUserEntityRequest,
  UserEntity,
  UserEntityDiffResponse,
  UserEntityKey,
  UserEntityType,
} from '@ente/protocol';

import * as entityStores from '../db/entity-stores.ts';
import type { UserEntityDataTable } from '../db/schema.ts';
import * as userEntitiesDb from '../db/user-entities.ts';
import { lockUser } from '../db/users.ts';
import { apiError, badRequest } from '../http/errors.ts';
import type { Context } from './context.ts';
import { checkQuota, sizeOf, updateLiveEntity, writeTombstone } from './entity-writes.ts';

export async function userEntityKeyOf(ctx: Context, userID: number, type: UserEntityType): Promise<UserEntityKey> {
  const row = await userEntitiesDb.keyOf(ctx.db, userID, type);
  // Ente's clients read this 404 as "no key yet" and make one.
  if (!row) throw apiError(404, 'NOT_FOUND', '');
  return { userID, type, encryptedKey: row.encrypted_key, header: row.header, createdAt: Number(row.created_at) };
}

/** Stores the type's key once; posting the same key again succeeds (a retry), another one is 409. */
export async function createUserEntityKey(
  ctx: Context,
  userID: number,
  key: CreateUserEntityKeyRequest,
): Promise<void> {
  if (await userEntitiesDb.insertKeyIfAbsent(ctx.db, userID, key, ctx.clock.nowMicros())) return;
  const existing = await userEntitiesDb.keyOf(ctx.db, userID, key.type);
  if (existing?.encrypted_key === key.encryptedKey && existing.header === key.header) return;
  throw apiError(409, 'ALREADY_EXISTS', 'Key already exists');
}

/** museum's base.NewID alphabet and length: `<type>_` and 22 random characters. */
const idAlphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function newEntityID(type: UserEntityType): string {
  const characters = Array.from({ length: 22 }, () => idAlphabet.charAt(randomInt(idAlphabet.length)));
  return `${type}_${characters.join('')}`;
}

/**
 * The id of a new entity: a smart album's is the client's and must be `sa_<userID>_…` (museum's rule); any
 * other type takes the client's when given (museum does), else a new one.
 */
function idOfNew(userID: number, body: CreateUserEntityRequest): string {
  if (body.type !== 'smart_album') return body.id ?? newEntityID(body.type);
  if (!body.id) throw badRequest('ID is required for SmartAlbum entity type');
  if (!body.id.startsWith(`sa_${String(userID)}_`)) {
    throw badRequest(`ID ${body.id} is not valid for SmartAlbum entity type`);
  }
  return body.id;
}

const noSuchEntity = () => apiError(404, 'NOT_FOUND', 'no such entity');
const alreadyExists = () => apiError(409, 'ALREADY_EXISTS', 'Entity already exists');

/**
 * Creates an entity of a type whose key exists (else 400). An id the caller already uses is 409
 * `ALREADY_EXISTS`, except a deleted smart album's, which comes back to life with the new data (museum's
 * restore: the same album gets its smart settings again).
 */
export async function createUserEntity(
  ctx: Context,
  userID: number,
  body: CreateUserEntityRequest,
): Promise<UserEntity> {
  const id = idOfNew(userID, body);
  const row = await ctx.db.transaction().execute(async (tx) => {
    await lockUser(tx, userID);
    if (!(await userEntitiesDb.keyOf(tx, userID, body.type))) {
      throw badRequest(`no key for type ${body.type}: POST /user-entity/key first`);
    }
    const existing = await entityStores.entityOf(tx, 'user_entity_data', userID, id);
    if (existing && !(existing.is_deleted && body.type === 'smart_album')) throw alreadyExists();
    await checkQuota(ctx, tx, 'user_entity_data', userID, { entities: 1, bytes: sizeOf(body) });
    const { type, encryptedData, header } = body;
    const time = await entityStores.nextUpdatedAt(tx, 'user_entity_data', userID);
    const entity = { userID, id, type, encryptedData, header, time };
    if (!existing) {
      const row = {
        user_id: userID,
        id,
        type,
        encrypted_data: encryptedData,
        header,
        created_at: time,
        updated_at: time,
      };
      return userEntitiesDb.insertEntity(tx, row);
    }
    // Only a deleted smart album (of that type, as museum's restore asks) comes back.
    const restored = await userEntitiesDb.restoreDeleted(tx, entity);
    if (!restored) throw alreadyExists();
    return restored;
  });
  return entityToWire(row);
}

/**
 * Replaces a live entity's data: unknown id 404, a deleted entity 400 (museum's message). The entity keeps its
 * type whatever `type` says, as in museum.
 */
export async function updateUserEntity(
  ctx: Context,
  userID: number,
  body: UpdateUserEntityRequest,
): Promise<UserEntity> {
  const row = await ctx.db.transaction().execute(async (tx) => {
    await lockUser(tx, userID);
    return updateLiveEntity(ctx, tx, 'user_entity_data', userID, body);
  });
  return entityToWire(row);
}

/**
 * Deletes an entity: its data goes and a tombstone stays, so every client's diff learns of it. Deleting a
 * tombstone again changes nothing; an id the caller has no entity under is 404.
 */
export async function deleteUserEntity(ctx: Context, userID: number, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    await lockUser(tx, userID);
    const current = await entityStores.entityOf(tx, 'user_entity_data', userID, id);
    if (!current) throw noSuchEntity();
    if (current.is_deleted) return;
    await writeTombstone(tx, 'user_entity_data', userID, id);
  });
}

/** The user's entities of `type` changed after `sinceTime`, oldest change first, at most `limit`. */
export async function userEntityDiff(
  ctx: Context,
  userID: number,
  query: { type: UserEntityType; sinceTime: number; limit: number },
): Promise<UserEntityDiffResponse> {
  const rows = await userEntitiesDb.entitiesSince(ctx.db, userID, query.type, query.sinceTime, query.limit);
  return { diff: rows.map(entityToWire) };
}

function entityToWire(row: Selectable<UserEntityDataTable>): UserEntity {
  return {
    id: row.id,
    userID: Number(row.user_id),
    type: row.type as UserEntityType,
    encryptedData: row.encrypted_data,
    header: row.header,
    isDeleted: row.is_deleted,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
