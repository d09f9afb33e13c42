// The authenticator rules (docs/protocol.md#authenticator): the wrapped authenticator key and the
// encrypted entities, synced by diff. Writes for one user are serialised by locking the user's key row, and
// each write takes updated_at = max(now, last + 1) on the database clock, so updated_at is unique and
// increasing per user and a diff page can never hide a row. `ifUpdatedAt` turns update and delete into
// compare-and-set. Each account has a quota (docs/protocol.md#authenticator): live entities and their
// bytes are counted under that same lock, in the transaction that writes, so no two writes (from any
// number of server processes) can pass it together. The quota and the update are services/entity-writes.ts's, shared
// with the user entities; the queries are db/authenticator.ts's and db/entity-stores.ts's.
import { randomUUID } from 'node:crypto';

import type { Selectable } from 'kysely';

import type { AuthenticatorKeyResponse, Entity, EntityDiffResponse } from '@ente/protocol';

import * as authenticatorDb from '../db/authenticator.ts';
import * as entityStores from '../db/entity-stores.ts';
import type { AuthenticatorEntityTable } from '../db/schema.ts';
import { apiError, plainError } from '../http/errors.ts';
import type { Context } from './context.ts';
import { changedSince, checkQuota, sizeOf, updateLiveEntity, writeTombstone } from './entity-writes.ts';
import { hasKeyAttributes } from './users.ts';

export async function authenticatorKeyOf(ctx: Context, userID: number): Promise<AuthenticatorKeyResponse> {
  const row = await authenticatorDb.keyOf(ctx.db, userID);
  if (!row) throw apiError(404, 'NOT_FOUND', '');
  return { userID, encryptedKey: row.encrypted_key, header: row.header, createdAt: Number(row.created_at) };
}

/** Stores the user's authenticator key once: 404 without key attributes, 409 when there is one. */
export async function createAuthenticatorKey(
  ctx: Context,
  userID: number,
  key: { encryptedKey: string; header: string },
): Promise<void> {
  if (!(await hasKeyAttributes(ctx, userID))) throw plainError(404);
  if (!(await authenticatorDb.insertKeyIfAbsent(ctx.db, userID, key, ctx.clock.nowMicros()))) {
    throw apiError(409, 'CONFLICT', 'Key already exists');
  }
}

const keyNotCreated = () => apiError(400, 'AUTH_KEY_NOT_CREATED', 'authenticator key not created');

export async function createEntity(
  ctx: Context,
  userID: number,
  body: { encryptedData: string; header: string },
): Promise<Entity> {
  const row = await ctx.db.transaction().execute(async (tx) => {
    if (!(await authenticatorDb.lockKey(tx, userID))) throw keyNotCreated();
    await checkQuota(ctx, tx, 'authenticator_entity', userID, { entities: 1, bytes: sizeOf(body) });
    const time = await entityStores.nextUpdatedAt(tx, 'authenticator_entity', userID);
    return authenticatorDb.insertEntity(tx, { id: randomUUID(), userID, ...body, time });
  });
  await ctx.invalidator.publish('entities', userID);
  return entityToWire(row);
}

export async function updateEntity(
  ctx: Context,
  userID: number,
  body: { id: string; encryptedData: string; header: string; ifUpdatedAt?: number | undefined },
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await authenticatorDb.lockKey(tx, userID))) throw keyNotCreated();
    await updateLiveEntity(ctx, tx, 'authenticator_entity', userID, body);
  });
  await ctx.invalidator.publish('entities', userID);
}

/** Deletes an entity (its data goes, a tombstone stays for the diff); an unknown one is a success. */
export async function deleteEntity(
  ctx: Context,
  userID: number,
  query: { id: string; ifUpdatedAt?: number | undefined },
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    // Without a key there are no entities, and an unknown id is still a success (docs/protocol.md#authenticator).
    if (!(await authenticatorDb.lockKey(tx, userID))) return;
    const current = await entityStores.entityOf(tx, 'authenticator_entity', userID, query.id);
    if (!current) return;
    if (query.ifUpdatedAt !== undefined && Number(current.updated_at) !== query.ifUpdatedAt) throw changedSince();
    if (current.is_deleted) return;
    await writeTombstone(tx, 'authenticator_entity', userID, query.id);
  });
  await ctx.invalidator.publish('entities', userID);
}

/**
 * The empty diff, answered from memory without a promise, when this process knows nothing changed since
 * `sinceTime` (See: [Note: Cache invalidation]); undefined when the database must be asked.
 */
export function knownEmptyDiff(ctx: Context, userID: number, sinceTime: number): EntityDiffResponse | undefined {
  const bound = ctx.cache.latestEntityTime(userID);
  if (bound !== undefined && sinceTime >= bound) return { diff: [], timestamp: ctx.clock.nowMicros() };
  return undefined;
}

/** The user's entities changed after `sinceTime`, at most `limit`; a whole page teaches the cache. */
export async function entityDiff(
  ctx: Context,
  userID: number,
  sinceTime: number,
  limit: number,
): Promise<EntityDiffResponse> {
  const generation = ctx.cache.entitiesGeneration(userID);
  const rows = await authenticatorDb.entitiesSince(ctx.db, userID, sinceTime, limit);
  if (rows.length < limit) {
    // Every row after sinceTime is in this page, so none is newer than its last one.
    const last = rows.at(-1);
    ctx.cache.putLatestEntityTime(userID, last ? Number(last.updated_at) : sinceTime, generation);
  }
  return { diff: rows.map(entityToWire), timestamp: ctx.clock.nowMicros() };
}

function entityToWire(row: Selectable<AuthenticatorEntityTable>): Entity {
  return {
    id: row.id,
    userID: Number(row.user_id),
    encryptedData: row.encrypted_data,
    header: row.header,
    isDeleted: row.is_deleted,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
