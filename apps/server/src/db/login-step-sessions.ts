// The sessions a login continues with after its first step (docs/protocol.md#verification-success): the
// 2FA session and the passkey login session are stored alike, by the hash of their ID.
import type { Db } from './database.ts';

export type LoginStepSessionTable = 'two_factor_sessions' | 'passkey_login_sessions';

export async function insertLoginStepSession(
  db: Db,
  table: LoginStepSessionTable,
  session: { hash: string; userID: number; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto(table)
    .values({
      session_hash: session.hash,
      user_id: session.userID,
      created_at: session.now,
      expires_at: session.expiresAt,
    })
    .execute();
}
