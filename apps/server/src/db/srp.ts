// The SRP queries (docs/protocol.md#srp-setup, docs/protocol.md#srp-login): the registered verifiers
// (srp_auth), the setups awaiting their proof (temp_srp_setup) and the login sessions (srp_sessions). Each
// takes the database or a transaction; the rules around them are services/srp.ts's.
import { sql, type ExpressionBuilder, type QueryCreator } from 'kysely';

import type { Db } from './database.ts';
import type { Database } from './schema.ts';
import { loginFactsQuery, type LoginFacts } from './users.ts';

/** What GET /users/srp/attributes needs of an address, in one query (undefined: no account). */
export async function srpAttributesByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .leftJoin('srp_auth', 'srp_auth.user_id', 'users.user_id')
    .leftJoin('key_attributes', 'key_attributes.user_id', 'users.user_id')
    .select([
      'users.is_email_mfa_enabled',
      'srp_auth.srp_user_id',
      'srp_auth.salt',
      'key_attributes.mem_limit',
      'key_attributes.ops_limit',
      'key_attributes.kek_salt',
    ])
    .where('users.email', '=', email)
    .executeTakeFirst();
}

/**
 * What a login session's start needs, in one query: the verifier of an srpUserID and whether its account has
 * e-mail MFA on (both null for an unknown srpUserID), and how many unverified sessions this srpUserID has from
 * this client address since `since`.
 */
export async function loginStartOf(db: Db, srpUserID: string, ip: string, since: number) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('srp_auth')
        .select('srp_auth.verifier')
        .where('srp_auth.srp_user_id', '=', srpUserID)
        .as('verifier'),
      eb
        .selectFrom('srp_auth')
        .innerJoin('users', 'users.user_id', 'srp_auth.user_id')
        .select('users.is_email_mfa_enabled')
        .where('srp_auth.srp_user_id', '=', srpUserID)
        .as('is_email_mfa_enabled'),
      unverifiedSessions(eb, srpUserID, ip, since).as('unverified'),
    ])
    .executeTakeFirstOrThrow();
  return { verifier: row.verifier, isEmailMfaEnabled: row.is_email_mfa_enabled, unverified: Number(row.unverified) };
}

/** The user who registered this srpUserID, if anyone. */
export async function ownerOfSrpUserID(db: Db, srpUserID: string) {
  return db.selectFrom('srp_auth').select('user_id').where('srp_user_id', '=', srpUserID).executeTakeFirst();
}

export async function hasSrpAuth(db: Db, userID: number): Promise<boolean> {
  const row = await db.selectFrom('srp_auth').select('user_id').where('user_id', '=', userID).executeTakeFirst();
  return row !== undefined;
}

export interface SrpAuthValues {
  srp_user_id: string;
  salt: string;
  verifier: string;
}

/** Registers the user's first verifier (a unique violation when there is one already). */
export async function insertSrpAuth(db: Db, userID: number, values: SrpAuthValues, now: number): Promise<void> {
  await db
    .insertInto('srp_auth')
    .values(srpAuthRow(userID, values, now))
    .execute();
}

/** Registers the user's verifier, replacing the one there is (a password change). */
export async function upsertSrpAuth(db: Db, userID: number, values: SrpAuthValues, now: number): Promise<void> {
  await db
    .insertInto('srp_auth')
    .values(srpAuthRow(userID, values, now))
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet({
        srp_user_id: values.srp_user_id,
        salt: values.salt,
        verifier: values.verifier,
        updated_at: now,
      }),
    )
    .execute();
}

function srpAuthRow(userID: number, values: SrpAuthValues, now: number) {
  return {
    user_id: userID,
    srp_user_id: values.srp_user_id,
    salt: values.salt,
    verifier: values.verifier,
    created_at: now,
    updated_at: now,
  };
}

export async function insertSetup(
  db: Db,
  setup: { id: string; sessionID: string; userID: number; now: number } & SrpAuthValues,
): Promise<void> {
  await db
    .insertInto('temp_srp_setup')
    .values({
      id: setup.id,
      session_id: setup.sessionID,
      user_id: setup.userID,
      srp_user_id: setup.srp_user_id,
      salt: setup.salt,
      verifier: setup.verifier,
      created_at: setup.now,
    })
    .execute();
}

export async function setupOf(db: Db, setupID: string, userID: number) {
  return db
    .selectFrom('temp_srp_setup')
    .select(['session_id', 'srp_user_id', 'salt', 'verifier'])
    .where('id', '=', setupID)
    .where('user_id', '=', userID)
    .executeTakeFirst();
}

export async function deleteSetup(db: Db, setupID: string): Promise<void> {
  await db.deleteFrom('temp_srp_setup').where('id', '=', setupID).execute();
}

/** Unverified sessions of an srpUserID from one client address created after `since`. */
export async function countUnverifiedSessions(db: Db, srpUserID: string, ip: string, since: number) {
  const row = await db
    .selectNoFrom((eb) => unverifiedSessions(eb, srpUserID, ip, since).as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

function unverifiedSessions(eb: ExpressionBuilder<Database, never>, srpUserID: string, ip: string, since: number) {
  return eb
    .selectFrom('srp_sessions')
    .select((inner) => inner.fn.countAll<string>().as('count'))
    .where('srp_user_id', '=', srpUserID)
    .where('ip', '=', ip)
    .where('is_verified', '=', false)
    .where('created_at', '>', since);
}

export async function insertSession(
  db: Db,
  session: { id: string; srpUserID: string; srpB: string; srpA: string; isFake: boolean; now: number; ip: string },
): Promise<void> {
  await db
    .insertInto('srp_sessions')
    .values({
      id: session.id,
      srp_user_id: session.srpUserID,
      srp_b: session.srpB,
      srp_a: session.srpA,
      is_fake: session.isFake,
      created_at: session.now,
      ip: session.ip,
    })
    .execute();
}

export async function sessionOf(db: Db, sessionID: string, srpUserID: string) {
  return db
    .selectFrom('srp_sessions')
    .select(['server_key', 'srp_a', 'srp_b', 'is_verified', 'is_fake', 'attempt_count'])
    .where('id', '=', sessionID)
    .where('srp_user_id', '=', srpUserID)
    .executeTakeFirst();
}

/**
 * Reserves one attempt of an unverified session of this srpUserID with fewer than `maxAttempts`, and returns
 * what its proof needs; undefined when there is no such session or none is left (sessionOf then says which).
 */
export async function reserveAttempt(db: Db, sessionID: string, srpUserID: string, maxAttempts: number) {
  return reserveAttemptQuery(db, sessionID, srpUserID, maxAttempts).executeTakeFirst();
}

/**
 * A password login's reservation (as reserveAttempt) and the login facts of its srpUserID (db/users.ts's
 * loginFactsOf) in one statement: a login is the embedded database's busiest write path. `attempt` is undefined
 * when none was reserved, `facts` when no account has this srpUserID.
 */
export async function reserveLoginAttempt(db: Db, sessionID: string, srpUserID: string, maxAttempts: number) {
  const row = await db
    .with('attempt', (qc) => reserveAttemptQuery(qc, sessionID, srpUserID, maxAttempts))
    .with('facts', (qc) => loginFactsQuery(qc).where('srp_auth.srp_user_id', '=', srpUserID))
    .selectFrom(sql<{ one: number }>`(select 1 as one)`.as('one'))
    .leftJoin('attempt', (join) => join.onTrue())
    .leftJoin('facts', (join) => join.onTrue())
    .selectAll(['attempt', 'facts'])
    .executeTakeFirstOrThrow();
  const { server_key, srp_a, srp_b, is_fake, ...facts } = row;
  return {
    attempt: srp_a === null || is_fake === null ? undefined : { server_key, srp_a, srp_b, is_fake },
    facts: facts.account_id === null ? undefined : (facts as LoginFacts),
  };
}

function reserveAttemptQuery(db: QueryCreator<Database>, sessionID: string, srpUserID: string, maxAttempts: number) {
  return db
    .updateTable('srp_sessions')
    .set({ attempt_count: sql<number>`attempt_count + 1` })
    .where('id', '=', sessionID)
    .where('srp_user_id', '=', srpUserID)
    .where('attempt_count', '<', maxAttempts)
    .where('is_verified', '=', false)
    .returning(['server_key', 'srp_a', 'srp_b', 'is_fake']);
}

/** Marks a session verified and gives its reserved attempt back; false when it already was verified. */
export async function markSessionVerified(db: Db, sessionID: string): Promise<boolean> {
  const verified = await db
    .updateTable('srp_sessions')
    .set({ is_verified: true, attempt_count: sql<number>`attempt_count - 1` })
    .where('id', '=', sessionID)
    .where('is_verified', '=', false)
    .returning('id')
    .executeTakeFirst();
  return verified !== undefined;
}
