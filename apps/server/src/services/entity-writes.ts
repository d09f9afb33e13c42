// The rules both stores of encrypted entities (services/authenticator.ts, services/user-entities.ts) write by:
// an entity's size, the account's quota of live entities and their bytes (docs/protocol.md#authenticator,
// docs/protocol.md#user-entities), and the replacement of a live entity's data. Each runs in the caller's
// transaction, under the caller's lock of the user's writes, so that the quota is counted where the write
// happens. Each store's limits are a row of `limitsOf`.
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import * as entityStores from '../db/entity-stores.ts';
import type { EntityTable } from '../db/entity-stores.ts';
import { apiError, badRequest } from '../http/errors.ts';
import type { Context } from './context.ts';

/** Each store's quota: the live entities one account may keep, and their bytes. */
const limitsOf: Record<EntityTable, (config: Config) => { entities: number; bytes: number }> = {
  authenticator_entity: (config) => ({
    entities: config.AUTHENTICATOR_MAX_ENTITIES,
    bytes: config.AUTHENTICATOR_MAX_BYTES,
  }),
  user_entity_data: (config) => ({ entities: config.USER_ENTITY_MAX_ENTITIES, bytes: config.USER_ENTITY_MAX_BYTES }),
};

/** What an entity counts against the quota: its encrypted data and header as sent (b64 text, one byte a character). */
export function sizeOf(entity: { encryptedData: string; header: string }): number {
  return entity.encryptedData.length + entity.header.length;
}

/**
 * Refuses (403 `ENTITY_LIMIT_REACHED`, nothing written) a write that adds `entities` live entities past the
 * account's quota of entities, or `bytes` bytes past its quota of bytes; adding none of either always passes.
 */
export async function checkQuota(
  ctx: Context,
  tx: Db,
  table: EntityTable,
  userID: number,
  added: { entities: number; bytes: number },
): Promise<void> {
  if (added.entities <= 0 && added.bytes <= 0) return;
  const limits = limitsOf[table](ctx.config);
  const usage = await entityStores.usageOf(tx, table, userID);
  if (added.entities > 0 && usage.entities + added.entities > limits.entities) {
    throw apiError(
      403,
      'ENTITY_LIMIT_REACHED',
      `the account holds the most entities it may (${String(limits.entities)})`,
    );
  }
  if (added.bytes > 0 && usage.bytes + added.bytes > limits.bytes) {
    throw apiError(
      403,
      'ENTITY_LIMIT_REACHED',
      `the account's entities would exceed the ${String(limits.bytes)} bytes it may store`,
    );
  }
}

/** The compare-and-set's refusal: the entity's updated_at is not the `ifUpdatedAt` the client saw. */
export const changedSince = () => apiError(409, 'CONFLICT', 'entity was changed since ifUpdatedAt');

/**
 * Replaces the user's live entity `body.id`'s data and stamps it: unknown id (or another user's) 404, a deleted
 * entity 400, another `ifUpdatedAt` than its own 409, growth past the quota of bytes 403 (only growth counts: an
 * update that keeps or shrinks the entity passes even over a lowered quota). Returns the row as stored.
 */
export async function updateLiveEntity<T extends EntityTable>(
  ctx: Context,
  tx: Db,
  table: T,
  userID: number,
  body: { id: string; encryptedData: string; header: string; ifUpdatedAt?: number | undefined },
) {
  const current = await entityStores.entityOf(tx, table, userID, body.id);
  if (!current) throw apiError(404, 'NOT_FOUND', 'no such entity');
  if (current.is_deleted) throw badRequest('entity is already deleted');
  if (body.ifUpdatedAt !== undefined && Number(current.updated_at) !== body.ifUpdatedAt) throw changedSince();
  await checkQuota(ctx, tx, table, userID, { entities: 0, bytes: sizeOf(body) - current.bytes });
  return entityStores.writeEntity(tx, table, userID, body.id, {
    encrypted_data: body.encryptedData,
    header: body.header,
    is_deleted: false,
    updated_at: await entityStores.nextUpdatedAt(tx, table, userID),
  });
}

/** Deletes the user's entity `id`: its data goes, and a tombstone stamped now stays for every client's diff. */
export async function writeTombstone(tx: Db, table: EntityTable, userID: number, id: string): Promise<void> {
  await entityStores.writeEntity(tx, table, userID, id, {
    encrypted_data: null,
    header: null,
    is_deleted: true,
    updated_at: await entityStores.nextUpdatedAt(tx, table, userID),
  });
}
