// What the two stores of encrypted entities (the authenticator's, and the photos clients' user entities) read,
// stamp, count and write alike: one entity of a user, the next updated_at of a user's rows, the live rows and
// bytes a quota counts, and an entity's new data or tombstone. Each takes the database or a transaction; the lock
// that makes them safe is the caller's (services/entity-writes.ts, services/authenticator.ts,
// services/user-entities.ts).
import { sql, type Selectable } from 'kysely';

import { timeAfter } from './change-times.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/** The tables whose rows are a user's encrypted entities, with data and header nulled by a delete. */
export type EntityTable = 'authenticator_entity' | 'user_entity_data';

/** What an entity counts against a quota: its encrypted data and header as stored (b64 text). */
const storedBytes = sql<string>`coalesce(octet_length(encrypted_data), 0) + coalesce(octet_length(header), 0)`;

/** The next updated_at of the user's entities: the database's clock in µs, but always past the last one. */
export async function nextUpdatedAt(tx: Db, table: EntityTable, userID: number): Promise<string> {
  const { next } = await tx
    .selectFrom(table)
    .select(timeAfter(sql`coalesce(max(updated_at), 0)`).as('next'))
    .where('user_id', '=', userID)
    .executeTakeFirstOrThrow();
  return next;
}

/** The user's live entities and their bytes. */
export async function usageOf(tx: Db, table: EntityTable, userID: number) {
  const row = await tx
    .selectFrom(table)
    .select([sql<string>`count(*)`.as('entities'), sql<string>`coalesce(sum(${storedBytes}), 0)`.as('bytes')])
    .where('user_id', '=', userID)
    .where('is_deleted', '=', false)
    .executeTakeFirstOrThrow();
  return { entities: Number(row.entities), bytes: Number(row.bytes) };
}

/** The user's entity `id` (live or deleted): whether it is deleted, its time, and the bytes it holds. */
export async function entityOf(tx: Db, table: EntityTable, userID: number, id: string) {
  const row = await tx
    .selectFrom(table)
    .select(['is_deleted', 'updated_at', storedBytes.as('bytes')])
    .where('id', '=', id)
    .where('user_id', '=', userID)
    .executeTakeFirst();
  return row && { ...row, bytes: Number(row.bytes) };
}

/** What a write sets on an entity: new data, or a tombstone's nulls. */
interface EntityWrite {
  encrypted_data: string | null;
  header: string | null;
  is_deleted: boolean;
  updated_at: string;
}

/** Writes the user's entity `id` and returns it as stored (the caller has seen that it exists). */
export async function writeEntity<T extends EntityTable>(
  tx: Db,
  table: T,
  userID: number,
  id: string,
  values: EntityWrite,
): Promise<Selectable<Database[T]>> {
  // Kysely types the query over the union of both tables; the row is the one of `table`.
  const either: EntityTable = table;
  const row = await tx
    .updateTable(either)
    .set(values)
    .where('user_id', '=', userID)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return row as Selectable<Database[T]>;
}
