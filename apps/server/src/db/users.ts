// The queries on users and their key attributes. Each takes the database or a transaction; the rules
// around them are services/users.ts's.
import type { Db } from './database.ts';

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
