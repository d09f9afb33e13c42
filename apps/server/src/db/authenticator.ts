// The authenticator queries (docs/protocol.md#authenticator): the wrapped key and the encrypted entities.
// Each takes the database or a transaction; the rules around them (the key lock, the quota, compare-and-set)
// are services/authenticator.ts's.
import { sql } from 'kysely';

import { timeAfter } from './change-times.ts';
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

/** The next updated_at for this user: the database's clock in µs, but always past the last one. */
export async function nextUpdatedAt(tx: Db, userID: number): Promise<string> {
  const { next } = await tx
    .selectFrom('authenticator_entity')
    .select(timeAfter(sql`coalesce(max(updated_at), 0)`).as('next'))
    .where('user_id', '=', userID)
    .executeTakeFirstOrThrow();
  return next;
}

/** What an entity counts against the quota: its encrypted data and header as stored (b64 text). */
const entityBytes = sql`coalesce(octet_length(encrypted_data), 0) + coalesce(octet_length(header), 0)`;

export async function entityOf(tx: Db, userID: number, id: string) {
  const row = await tx
    .selectFrom('authenticator_entity')
    .select(['is_deleted', 'updated_at', sql<string>`${entityBytes}`.as('bytes')])
    .where('id', '=', id)
    .where('user_id', '=', userID)
    .executeTakeFirst();
  return row && { ...row, bytes: Number(row.bytes) };
}

/** The user's live entities and their bytes. */
export async function usageOf(tx: Db, userID: number) {
  const row = await tx
    .selectFrom('authenticator_entity')
    .select([sql<string>`count(*)`.as('entities'), sql<string>`coalesce(sum(${entityBytes}), 0)`.as('bytes')])
    .where('user_id', '=', userID)
    .where('is_deleted', '=', false)
    .executeTakeFirstOrThrow();
  return { entities: Number(row.entities), bytes: Number(row.bytes) };
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

export async function updateEntity(
  tx: Db,
  id: string,
  values: { encrypted_data: string | null; header: string | null; updated_at: string; is_deleted?: boolean },
): Promise<void> {
  await tx.updateTable('authenticator_entity').set(values).where('id', '=', id).execute();
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
