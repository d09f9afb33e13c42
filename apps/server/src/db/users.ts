// The queries on users and their key attributes. Each takes the database or a transaction; the rules
// around them are services/users.ts's.
import type { QueryCreator } from 'kysely';

import type { SetKeyAttributesRequest, SetRecoveryKeyRequest } from '@ente/protocol';

import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Locks the user's row until the transaction ends (SELECT … FOR UPDATE), so that a rule counted under it
 * (at most so many passkeys) holds against concurrent writers on PostgreSQL, where a count in a READ
 * COMMITTED transaction does not see another transaction's uncommitted insert. False when there is no user.
 */
export async function lockUser(tx: Db, userID: number): Promise<boolean> {
  const row = await tx
    .selectFrom('users')
    .select('user_id')
    .where('user_id', '=', userID)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** The user's e-mail address (the user must exist). */
export async function emailOf(db: Db, userID: number): Promise<string> {
  const user = await db.selectFrom('users').select('email').where('user_id', '=', userID).executeTakeFirstOrThrow();
  return user.email;
}

/** Replaces the password-wrapped master key of the user's key attributes; false when there are none. */
export async function updatePasswordKeyAttributes(
  db: Db,
  userID: number,
  attrs: { kekSalt: string; encryptedKey: string; keyDecryptionNonce: string; memLimit: number; opsLimit: number },
): Promise<boolean> {
  const updated = await db
    .updateTable('key_attributes')
    .set({
      kek_salt: attrs.kekSalt,
      encrypted_key: attrs.encryptedKey,
      key_decryption_nonce: attrs.keyDecryptionNonce,
      mem_limit: attrs.memLimit,
      ops_limit: attrs.opsLimit,
    })
    .where('user_id', '=', userID)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** The user with this (normalised) e-mail and its login flags. */
export async function userByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['user_id', 'email', 'is_email_mfa_enabled', 'is_two_factor_enabled'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** Creates a user unless the e-mail is taken meanwhile; its ID, or undefined when it was. */
export async function insertUserIfAbsent(db: Db, email: string, source: string | null, now: number) {
  const created = await db
    .insertInto('users')
    .values({ email, source, created_at: now })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return created && Number(created.user_id);
}

/**
 * Everything a login answer depends on, in one query (a login is the server's busiest write path, and on the
 * embedded PGlite each statement costs a third of a millisecond of CPU): the e-mail and second-factor flags,
 * whether a live passkey exists, the key attributes (their columns null when there are none) and the SRP
 * verifier (null without one). By user, or by the srpUserID a password login names; undefined for no user.
 */
export async function loginFactsOf(db: Db, who: { userID: number } | { srpUserID: string }) {
  const query = loginFactsQuery(db);
  return 'userID' in who
    ? query.where('users.user_id', '=', who.userID).executeTakeFirst()
    : query.where('srp_auth.srp_user_id', '=', who.srpUserID).executeTakeFirst();
}

/** loginFactsOf's query without its condition (db/srp.ts reads the facts in the statement of a login's attempt). */
export function loginFactsQuery(db: QueryCreator<Database>) {
  return db
    .selectFrom('users')
    .leftJoin('srp_auth', 'srp_auth.user_id', 'users.user_id')
    .leftJoin('key_attributes', 'key_attributes.user_id', 'users.user_id')
    .selectAll('key_attributes')
    .select((eb) => [
      'users.user_id as account_id',
      'users.email',
      'users.is_two_factor_enabled',
      'users.is_email_mfa_enabled',
      'srp_auth.verifier',
      eb
        .exists(
          eb
            .selectFrom('passkeys')
            .select('passkeys.id')
            .whereRef('passkeys.user_id', '=', 'users.user_id')
            .where('passkeys.deleted_at', 'is', null),
        )
        .as('has_passkey'),
    ]);
}

export type LoginFacts = NonNullable<Awaited<ReturnType<typeof loginFactsOf>>>;

/** What GET /users/details/v2 shows (the user must exist). */
export async function detailsOf(db: Db, userID: number) {
  return db
    .selectFrom('users')
    .leftJoin('srp_auth', 'srp_auth.user_id', 'users.user_id')
    .select(['users.email', 'users.is_email_mfa_enabled', 'users.is_two_factor_enabled', 'srp_auth.srp_user_id'])
    .where('users.user_id', '=', userID)
    .executeTakeFirstOrThrow();
}

/** Sets the user's e-mail; false when there is no such user (a unique violation when the address is taken). */
export async function updateEmail(db: Db, userID: number, email: string): Promise<boolean> {
  const changed = await db.updateTable('users').set({ email }).where('user_id', '=', userID).executeTakeFirst();
  return Number(changed.numUpdatedRows) === 1;
}

export async function setEmailMfa(db: Db, userID: number, isEnabled: boolean): Promise<void> {
  await db.updateTable('users').set({ is_email_mfa_enabled: isEnabled }).where('user_id', '=', userID).execute();
}

export async function setTwoFactorEnabled(db: Db, userID: number, isEnabled: boolean): Promise<void> {
  await db.updateTable('users').set({ is_two_factor_enabled: isEnabled }).where('user_id', '=', userID).execute();
}

export async function isTwoFactorEnabled(db: Db, userID: number): Promise<boolean> {
  const user = await db
    .selectFrom('users')
    .select('is_two_factor_enabled')
    .where('user_id', '=', userID)
    .executeTakeFirstOrThrow();
  return user.is_two_factor_enabled;
}

export async function keyAttributesRowOf(db: Db, userID: number) {
  return db.selectFrom('key_attributes').selectAll().where('user_id', '=', userID).executeTakeFirst();
}

export async function hasKeyAttributes(db: Db, userID: number): Promise<boolean> {
  const row = await db.selectFrom('key_attributes').select('user_id').where('user_id', '=', userID).executeTakeFirst();
  return row !== undefined;
}

/** Stores the user's key attributes unless there are some already; false when there were. */
export async function insertKeyAttributesIfAbsent(
  db: Db,
  userID: number,
  attrs: SetKeyAttributesRequest['keyAttributes'],
  now: number,
): Promise<boolean> {
  const inserted = await db
    .insertInto('key_attributes')
    .values({
      user_id: userID,
      kek_salt: attrs.kekSalt,
      kek_hash: attrs.kekHash ?? '',
      encrypted_key: attrs.encryptedKey,
      key_decryption_nonce: attrs.keyDecryptionNonce,
      public_key: attrs.publicKey,
      encrypted_secret_key: attrs.encryptedSecretKey,
      secret_key_decryption_nonce: attrs.secretKeyDecryptionNonce,
      mem_limit: attrs.memLimit,
      ops_limit: attrs.opsLimit,
      master_key_encrypted_with_recovery_key: attrs.masterKeyEncryptedWithRecoveryKey || null,
      master_key_decryption_nonce: attrs.masterKeyDecryptionNonce || null,
      recovery_key_encrypted_with_master_key: attrs.recoveryKeyEncryptedWithMasterKey || null,
      recovery_key_decryption_nonce: attrs.recoveryKeyDecryptionNonce || null,
      created_at: now,
    })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Stores the recovery key's wrappings unless they are set already; false when they were. */
export async function setRecoveryKeyIfUnset(db: Db, userID: number, body: SetRecoveryKeyRequest): Promise<boolean> {
  const updated = await db
    .updateTable('key_attributes')
    .set({
      master_key_encrypted_with_recovery_key: body.masterKeyEncryptedWithRecoveryKey,
      master_key_decryption_nonce: body.masterKeyDecryptionNonce,
      recovery_key_encrypted_with_master_key: body.recoveryKeyEncryptedWithMasterKey,
      recovery_key_decryption_nonce: body.recoveryKeyDecryptionNonce,
    })
    .where('user_id', '=', userID)
    .where('master_key_encrypted_with_recovery_key', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return updated !== undefined;
}

/** The public key of the account with this e-mail, when it has key attributes. */
export async function publicKeyByEmail(db: Db, email: string) {
  const row = await db
    .selectFrom('users')
    .innerJoin('key_attributes', 'key_attributes.user_id', 'users.user_id')
    .select('key_attributes.public_key')
    .where('users.email', '=', email)
    .executeTakeFirst();
  return row?.public_key;
}
