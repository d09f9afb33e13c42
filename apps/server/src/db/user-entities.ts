// The user entity queries (docs/protocol.md#user-entities): one wrapped key per (user, type) and the encrypted
// entities of each type. Each takes the database or a transaction; the rules around them (the user's lock, the
// quota, which refusal) are services/user-entities.ts's. What both entity stores share (an entity's state, its
// updated_at, the quota's count, the write of an entity) is db/entity-stores.ts's.
import type { Insertable } from 'kysely';

import type { Db } from './database.ts';
import type { UserEntityDataTable } from './schema.ts';

export async function keyOf(db: Db, userID: number, type: string) {
  return db
    .selectFrom('user_entity_key')
    .select(['encrypted_key', 'header', 'created_at'])
    .where((eb) => eb.and({ user_id: userID, type }))
    .executeTakeFirst();
}

/** Stores the type's key unless the user has one; false when there was. */
export async function insertKeyIfAbsent(
  db: Db,
  userID: number,
  key: { type: string; encryptedKey: string; header: string },
  now: number,
): Promise<boolean> {
  const inserted = await db
    .insertInto('user_entity_key')
    .values({ user_id: userID, type: key.type, encrypted_key: key.encryptedKey, header: key.header, created_at: now })
    .onConflict((conflict) => conflict.columns(['user_id', 'type']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function insertEntity(tx: Db, row: Insertable<UserEntityDataTable>) {
  return tx.insertInto('user_entity_data').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Brings back the user's deleted entity `id` of `type` with new data; undefined when there is no such tombstone. */
export async function restoreDeleted(
  tx: Db,
  entity: { userID: number; id: string; type: string; encryptedData: string; header: string; time: string },
) {
  return tx
    .updateTable('user_entity_data')
    .set({ encrypted_data: entity.encryptedData, header: entity.header, is_deleted: false, updated_at: entity.time })
    .where('user_id', '=', entity.userID)
    .where('id', '=', entity.id)
    .where('type', '=', entity.type)
    .where('is_deleted', '=', true)
    .returningAll()
    .executeTakeFirst();
}

/** The user's entities of `type` changed after `sinceTime`, oldest change first, at most `limit`. */
export async function entitiesSince(db: Db, userID: number, type: string, sinceTime: number, limit: number) {
  return db
    .selectFrom('user_entity_data')
    .selectAll()
    .where('user_id', '=', userID)
    .where('type', '=', type)
    .where('updated_at', '>', sinceTime)
    .orderBy('updated_at', 'asc')
    .limit(limit)
    .execute();
}
