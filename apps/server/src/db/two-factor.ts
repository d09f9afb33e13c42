// The two-factor (TOTP) queries (docs/protocol.md#two-factor): secrets awaiting their first code, the
// enabled secret, the 2FA login sessions and the codes already used. Each takes the database or a
// transaction; the rules around them are services/two-factor.ts's.
import { sql } from 'kysely';

import type { Db } from './database.ts';

export interface SealedSecret {
  encrypted_secret: string;
  secret_nonce: string;
}

export async function insertPendingSecret(
  db: Db,
  userID: number,
  secret: SealedSecret,
  now: number,
  expiresAt: number,
): Promise<void> {
  await db
    .insertInto('temp_two_factor')
    .values({ user_id: userID, ...secret, created_at: now, expires_at: expiresAt })
    .execute();
}

/** The user's set-up secrets that have not expired at `now`. */
export async function pendingSecretsOf(db: Db, userID: number, now: number) {
  return db
    .selectFrom('temp_two_factor')
    .select(['encrypted_secret', 'secret_nonce'])
    .where('user_id', '=', userID)
    .where('expires_at', '>', now)
    .execute();
}

export async function deletePendingSecrets(db: Db, userID: number): Promise<void> {
  await db.deleteFrom('temp_two_factor').where('user_id', '=', userID).execute();
}

/** Stores the user's enabled secret, replacing one there is. */
export async function upsertTwoFactor(
  db: Db,
  userID: number,
  values: SealedSecret & {
    secret_hash: string;
    encrypted_two_factor_secret: string;
    two_factor_secret_decryption_nonce: string;
    created_at: number;
  },
): Promise<void> {
  await db
    .insertInto('two_factor')
    .values({ user_id: userID, ...values })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
    .execute();
}

export async function deleteTwoFactor(db: Db, userID: number): Promise<void> {
  await db.deleteFrom('two_factor').where('user_id', '=', userID).execute();
}

/** The user's sealed secret and whether 2FA is on. */
export async function enabledSecretOf(db: Db, userID: number) {
  return db
    .selectFrom('two_factor')
    .innerJoin('users', 'users.user_id', 'two_factor.user_id')
    .select(['two_factor.encrypted_secret', 'two_factor.secret_nonce', 'users.is_two_factor_enabled'])
    .where('two_factor.user_id', '=', userID)
    .executeTakeFirst();
}

/** The secret wrapped with the recovery key, which the client opens to remove 2FA. */
export async function recoverableSecretOf(db: Db, userID: number | string) {
  return db
    .selectFrom('two_factor')
    .select(['encrypted_two_factor_secret', 'two_factor_secret_decryption_nonce'])
    .where('user_id', '=', userID)
    .executeTakeFirst();
}

export async function secretHashOf(db: Db, userID: number) {
  const row = await db.selectFrom('two_factor').select('secret_hash').where('user_id', '=', userID).executeTakeFirst();
  return row?.secret_hash;
}

/** Remembers a used code; false when it was used before. */
export async function rememberUsedCode(db: Db, userID: number, codeHash: string, now: number): Promise<boolean> {
  const row = await db
    .insertInto('two_factor_used_codes')
    .values({ user_id: userID, code_hash: codeHash, used_at: now })
    .onConflict((conflict) => conflict.columns(['user_id', 'code_hash']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The 2FA session with this hash that has not expired at `now`. */
export async function liveSession(db: Db, sessionHash: string, now: number) {
  return db
    .selectFrom('two_factor_sessions')
    .select(['user_id', 'wrong_attempts'])
    .where('session_hash', '=', sessionHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function countWrongAttempt(db: Db, sessionHash: string): Promise<void> {
  await db
    .updateTable('two_factor_sessions')
    .set({ wrong_attempts: sql<number>`wrong_attempts + 1` })
    .where('session_hash', '=', sessionHash)
    .execute();
}
