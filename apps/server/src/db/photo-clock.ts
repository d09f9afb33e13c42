// The photos clocks: one row per user holding the last time stamped on a change that user sees. A write
// locks the clocks of everyone who will see it (services/photo-clock.ts), so each user's changes are
// stamped one after another, in commit order.
import { sql } from 'kysely';

import { timeAfter } from './change-times.ts';
import type { Db } from './database.ts';

/** Makes sure each user has a clock row (in id order, so that two writers never wait on each other in a cycle). */
export async function insertMissingClocks(tx: Db, userIDs: readonly number[]): Promise<void> {
  await tx
    .insertInto('photo_clocks')
    .values(userIDs.map((user_id) => ({ user_id, last_time: 0 })))
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute();
}

/** Locks the users' clocks in id order and returns the next time past all of them. */
export async function lockClocksForNextTime(tx: Db, userIDs: readonly number[]): Promise<number> {
  const locked = tx
    .selectFrom('photo_clocks')
    .select('last_time')
    .where('user_id', 'in', userIDs)
    .orderBy('user_id')
    .forUpdate()
    .as('locked');
  const { next } = await tx
    .selectFrom(locked)
    .select(timeAfter(sql`coalesce(max(locked.last_time), 0)`).as('next'))
    .executeTakeFirstOrThrow();
  return Number(next);
}

export async function setClocks(tx: Db, userIDs: readonly number[], time: number): Promise<void> {
  await tx.updateTable('photo_clocks').set({ last_time: time }).where('user_id', 'in', userIDs).execute();
}
