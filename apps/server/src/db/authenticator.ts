// The authenticator queries (docs/protocol.md#authenticator): the wrapped key and the encrypted entities.
// Each takes the database or a transaction; the rules around them (the key lock, the quota, compare-and-set)
// are services/authenticator.ts's. What both entity stores share (an entity's state, its updated_at, the
// quota's count, the write of an entity) is db/entity-stores.ts's.
import type { Db } from './database.ts';

export async function keyOf(db: Db, userID: number) {
  return db
    .selectFrom('authenticator_key')
    .select(['encrypted_key', 'header', 'created_at'])
    .where('user_id', '=', userID)
    .executeTakeFirst();
}

/** Stores the user's key unless there is one; false when there was. */
export async function insertKeyIfAbsent(
  db: Db,
  userID: number,
  key: { encryptedKey: string; header: string },
  now: number,
): Promise<boolean> {
  const inserted = await db
    .insertInto('authenticator_key')
    .values({ user_id: userID, encrypted_key: key.encryptedKey, header: key.header, created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Locks the user's authenticator key row for the transaction; false when there is no key. */
export async function lockKey(tx: Db, userID: number): Promise<boolean> {
  const row = await tx
    .selectFrom('authenticator_key')
    .select('user_id')
    .where('user_id', '=', userID)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertEntity(
  tx: Db,
  entity: { id: string; userID: number; encryptedData: string; header: string; time: string },
) {
  return tx
    .insertInto('authenticator_entity')
    .values({
      id: entity.id,
      user_id: entity.userID,
      encrypted_data: entity.encryptedData,
      header: entity.header,
      created_at: entity.time,
      updated_at: entity.time,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's entities changed after `sinceTime`, oldest change first, at most `limit`. */
export async function entitiesSince(db: Db, userID: number, sinceTime: number, limit: number) {
  return db
    .selectFrom('authenticator_entity')
    .selectAll()
    .where('user_id', '=', userID)
    .where('updated_at', '>', sinceTime)
    .orderBy('updated_at', 'asc')
    .limit(limit)
    .execute();
}
