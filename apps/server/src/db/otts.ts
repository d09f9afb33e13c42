// The e-mail code queries (docs/protocol.md#e-mail-codes): the stored codes (otts), the record of code
// requests (ott_sends) and the hold on codes to new addresses. Each takes the database or a transaction;
// the rules around them are services/otts.ts's.
import { sql } from 'kysely';

import type { Db } from './database.ts';
import type { OttSendKind } from './schema.ts';

/** The live codes of (email, app) that guessing has not killed, oldest first. */
export async function liveOttsOf(db: Db, email: string, app: string, now: number, maxWrongAttempts: number) {
  return db
    .selectFrom('otts')
    .select(['id', 'ip'])
    .where('email', '=', email)
    .where('app', '=', app)
    .where('expires_at', '>', now)
    .where('wrong_attempts', '<', maxWrongAttempts)
    .orderBy('id')
    .execute();
}

export async function deleteOtts(db: Db, ids: (string | number)[]): Promise<void> {
  await db.deleteFrom('otts').where('id', 'in', ids).execute();
}

export async function insertOtt(
  db: Db,
  ott: { email: string; app: string; hash: string; now: number; expiresAt: number; ip: string },
) {
  const stored = await db
    .insertInto('otts')
    .values({
      email: ott.email,
      app: ott.app,
      ott_hash: ott.hash,
      created_at: ott.now,
      expires_at: ott.expiresAt,
      ip: ott.ip,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return stored.id;
}

export async function insertSend(db: Db, ip: string, now: number, kind: OttSendKind) {
  const send = await db
    .insertInto('ott_sends')
    .values({ ip, sent_at: now, kind })
    .returning('id')
    .executeTakeFirstOrThrow();
  return send.id;
}

/** Replaces a code's hash with one that no code has. */
export async function voidOtt(db: Db, id: string | number, hash: string): Promise<void> {
  await db.updateTable('otts').set({ ott_hash: hash }).where('id', '=', id).execute();
}

export async function deleteSend(db: Db, id: string | number): Promise<void> {
  await db.deleteFrom('ott_sends').where('id', '=', id).execute();
}

/** Whether the address has an account, and whether it has key attributes (undefined: no account). */
export async function accountByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .leftJoin('key_attributes', 'key_attributes.user_id', 'users.user_id')
    .select(['users.user_id', 'key_attributes.user_id as keys_user_id'])
    .where('users.email', '=', email)
    .executeTakeFirst();
}

/** Reserves one guess on every live code of the address (all apps) that has guesses left; the reserved codes. */
export async function reserveGuess(db: Db, email: string, now: number, maxWrongAttempts: number) {
  return db
    .updateTable('otts')
    .set({ wrong_attempts: sql<number>`wrong_attempts + 1` })
    .where('email', '=', email)
    .where('expires_at', '>', now)
    .where('wrong_attempts', '<', maxWrongAttempts)
    .returning(['id', 'app', 'ott_hash'])
    .execute();
}

/** Whether (email, app) has an unexpired code, guessed to death or not. */
export async function hasUnexpiredOtt(db: Db, email: string, app: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('otts')
    .select('id')
    .where('email', '=', email)
    .where('app', '=', app)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes a code; false when another request deleted it first. */
export async function takeOtt(db: Db, id: string | number): Promise<boolean> {
  return (await db.deleteFrom('otts').where('id', '=', id).returning('id').executeTakeFirst()) !== undefined;
}

/** Gives codes back the guess reserved on them. */
export async function returnGuess(db: Db, ids: (string | number)[]): Promise<void> {
  await db
    .updateTable('otts')
    .set({ wrong_attempts: sql<number>`wrong_attempts - 1` })
    .where('id', 'in', ids)
    .where('wrong_attempts', '>', 0)
    .execute();
}

const newAddressHold = 'ott-new-address-hold';

export async function isNewAddressHoldOn(db: Db, now: number): Promise<boolean> {
  const held = await db
    .selectFrom('rate_limits')
    .select('window_start')
    .where('key', '=', newAddressHold)
    .where('window_start', '>', now)
    .executeTakeFirst();
  return held !== undefined;
}

export async function startNewAddressHold(db: Db, until: number): Promise<void> {
  await db
    .insertInto('rate_limits')
    .values({ key: newAddressHold, window_start: until, count: 1 })
    .onConflict((conflict) => conflict.columns(['key', 'window_start']).doNothing())
    .execute();
}

export async function hasSentSince(db: Db, ip: string, since: number): Promise<boolean> {
  const row = await db
    .selectFrom('ott_sends')
    .select('id')
    .where('ip', '=', ip)
    .where('sent_at', '>', since)
    .executeTakeFirst();
  return row !== undefined;
}

/** Code requests recorded since `since`, of one kind or of all. */
export async function sendsSince(db: Db, since: number, kind?: OttSendKind): Promise<number> {
  let query = db
    .selectFrom('ott_sends')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('sent_at', '>', since);
  if (kind !== undefined) query = query.where('kind', '=', kind);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}
