// The queries on session tokens that routes and services end sessions with. Each takes the database or a
// transaction; the token check itself is services/tokens.ts's.
import type { Db } from './database.ts';

/** Ends every session of the user except the one whose token hash is `keep`. */
export async function deleteOtherTokens(db: Db, userID: number, keep: string): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ is_deleted: true })
    .where('user_id', '=', userID)
    .where('token_hash', '!=', keep)
    .execute();
}

/** Issues a session: only the token's hash is stored. */
export async function insertToken(
  db: Db,
  token: { hash: string; userID: number; app: string; ip: string; userAgent: string | null; now: number },
): Promise<void> {
  await db
    .insertInto('tokens')
    .values({
      token_hash: token.hash,
      user_id: token.userID,
      app: token.app,
      ip: token.ip,
      user_agent: token.userAgent,
      created_at: token.now,
      last_used_at: token.now,
    })
    .execute();
}

export async function deleteToken(db: Db, tokenHash: string): Promise<void> {
  await db.updateTable('tokens').set({ is_deleted: true }).where('token_hash', '=', tokenHash).execute();
}

/** Ends the user's session named by its token or its token hash (GET /users/sessions names others by hash). */
export async function deleteTokenOfUser(db: Db, userID: number, tokenHash: string, tokenOrHash: string) {
  await db
    .updateTable('tokens')
    .set({ is_deleted: true })
    .where('user_id', '=', userID)
    .where((eb) => eb.or([eb('token_hash', '=', tokenHash), eb('token_hash', '=', tokenOrHash)]))
    .execute();
}

/** The user's undeleted sessions in one app, newest first. */
export async function tokensOf(db: Db, userID: number, app: string) {
  return db
    .selectFrom('tokens')
    .select(['token_hash', 'created_at', 'last_used_at', 'ip', 'user_agent'])
    .where('user_id', '=', userID)
    .where('app', '=', app)
    .where('is_deleted', '=', false)
    .orderBy('created_at', 'desc')
    .execute();
}

/** The session of a token hash that was neither logged out nor revoked, whatever its app and idle time. */
export async function liveTokenRow(db: Db, tokenHash: string) {
  return db
    .selectFrom('tokens')
    .select(['user_id', 'app', 'last_used_at'])
    .where('token_hash', '=', tokenHash)
    .where('is_deleted', '=', false)
    .executeTakeFirst();
}

/** Records a session's use: when, and from which address and user agent. */
export async function recordTokenUse(
  db: Db,
  tokenHash: string,
  use: { ip: string; userAgent: string | null; now: number },
): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ last_used_at: use.now, ip: use.ip, user_agent: use.userAgent })
    .where('token_hash', '=', tokenHash)
    .execute();
}
