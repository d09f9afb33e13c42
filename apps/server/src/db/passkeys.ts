// The passkey queries (docs/protocol.md#passkeys): passkeys and their credentials, WebAuthn ceremony
// sessions, passkey login sessions and passkey recovery. Each takes the database or a transaction; the
// rules around them are services/passkeys.ts's.
import type { Db } from './database.ts';

/** The user's live passkeys with their credentials, oldest first. */
export async function livePasskeys(db: Db, userID: number) {
  return db
    .selectFrom('passkeys')
    .innerJoin('passkey_credentials', 'passkey_credentials.passkey_id', 'passkeys.id')
    .select([
      'passkeys.id',
      'passkeys.friendly_name',
      'passkeys.created_at',
      'passkey_credentials.passkey_id',
      'passkey_credentials.credential_id',
      'passkey_credentials.public_key',
      'passkey_credentials.sign_count',
      'passkey_credentials.transports',
      'passkey_credentials.last_used_at',
    ])
    .where('passkeys.user_id', '=', userID)
    .where('passkeys.deleted_at', 'is', null)
    .orderBy('passkeys.created_at')
    .execute();
}

export async function countLivePasskeys(db: Db, userID: number): Promise<number> {
  const { count } = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userID)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Renames a live passkey of the user; false when there is none with this ID. */
export async function renamePasskey(db: Db, userID: number, passkeyID: string, friendlyName: string) {
  const updated = await db
    .updateTable('passkeys')
    .set({ friendly_name: friendlyName })
    .where('id', '=', passkeyID)
    .where('user_id', '=', userID)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Marks a live passkey of the user deleted; false when there is none with this ID. */
export async function deletePasskey(db: Db, userID: number, passkeyID: string, now: number) {
  const deleted = await db
    .updateTable('passkeys')
    .set({ deleted_at: now })
    .where('id', '=', passkeyID)
    .where('user_id', '=', userID)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return deleted.numUpdatedRows > 0n;
}

export async function isCredentialRegistered(db: Db, credentialID: string): Promise<boolean> {
  const row = await db
    .selectFrom('passkey_credentials')
    .select('passkey_id')
    .where('credential_id', '=', credentialID)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertPasskey(
  db: Db,
  passkey: { id: string; userID: number; friendlyName: string; now: number },
  credential: { id: string; publicKey: string; signCount: number; transports: string },
): Promise<void> {
  await db
    .insertInto('passkeys')
    .values({ id: passkey.id, user_id: passkey.userID, friendly_name: passkey.friendlyName, created_at: passkey.now })
    .execute();
  await db
    .insertInto('passkey_credentials')
    .values({
      passkey_id: passkey.id,
      credential_id: credential.id,
      public_key: credential.publicKey,
      sign_count: credential.signCount,
      transports: credential.transports,
      created_at: passkey.now,
    })
    .execute();
}

export async function recordPasskeyUse(db: Db, passkeyID: string, signCount: number, now: number): Promise<void> {
  await db
    .updateTable('passkey_credentials')
    .set({ sign_count: signCount, last_used_at: now })
    .where('passkey_id', '=', passkeyID)
    .execute();
}

export async function insertCeremony(
  db: Db,
  ceremony: {
    id: string;
    userID: number;
    kind: 'registration' | 'login';
    challenge: string;
    loginSessionHash: string | null;
    expiresAt: number;
  },
): Promise<void> {
  await db
    .insertInto('webauthn_sessions')
    .values({
      id: ceremony.id,
      user_id: ceremony.userID,
      kind: ceremony.kind,
      challenge: ceremony.challenge,
      login_session_hash: ceremony.loginSessionHash,
      expires_at: ceremony.expiresAt,
    })
    .execute();
}

/** Deletes the ceremony session of this ID, user and kind and returns it (undefined when there is none). */
export async function takeCeremony(db: Db, id: string, kind: 'registration' | 'login', userID: number) {
  return db
    .deleteFrom('webauthn_sessions')
    .where('id', '=', id)
    .where('kind', '=', kind)
    .where('user_id', '=', userID)
    .returning(['challenge', 'login_session_hash', 'expires_at'])
    .executeTakeFirst();
}

/** The passkey login session with this hash that has not expired at `now`. */
export async function liveLoginSession(db: Db, sessionHash: string, now: number) {
  return db
    .selectFrom('passkey_login_sessions')
    .select(['user_id', 'verified_at', 'token_data'])
    .where('session_hash', '=', sessionHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks a login session verified with the answer to hand out; false when it was already. */
export async function claimLoginSession(db: Db, sessionHash: string, tokenData: string, now: number) {
  const claimed = await db
    .updateTable('passkey_login_sessions')
    .set({ verified_at: now, token_data: tokenData })
    .where('session_hash', '=', sessionHash)
    .where('verified_at', 'is', null)
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

/** Counts one fetch of a verified session's answer; false once it was fetched `maxFetches` times. */
export async function countTokenFetch(db: Db, sessionHash: string, maxFetches: number) {
  const fetched = await db
    .updateTable('passkey_login_sessions')
    .set((eb) => ({ token_fetch_count: eb('token_fetch_count', '+', 1) }))
    .where('session_hash', '=', sessionHash)
    .where('token_fetch_count', '<', maxFetches)
    .executeTakeFirst();
  return fetched.numUpdatedRows > 0n;
}

export async function passkeyRecoveryOf(db: Db, userID: number | string) {
  return db
    .selectFrom('passkey_recovery')
    .select(['user_id', 'secret_hash', 'user_secret_cipher', 'user_secret_nonce'])
    .where('user_id', '=', userID)
    .executeTakeFirst();
}

/** Stores the passkey recovery unless the user has one already (write-once). */
export async function insertPasskeyRecoveryIfAbsent(
  db: Db,
  recovery: { userID: number; secretHash: string; cipher: string; nonce: string; now: number },
): Promise<void> {
  await db
    .insertInto('passkey_recovery')
    .values({
      user_id: recovery.userID,
      secret_hash: recovery.secretHash,
      user_secret_cipher: recovery.cipher,
      user_secret_nonce: recovery.nonce,
      created_at: recovery.now,
    })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute();
}
