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
