// The account's active sessions (docs/protocol.md#sessions-and-logout): the live tokens of this app,
// each with its device, IP and last use, and revoking one of them. The server shows this browser's own
// session with the token it sent and every other one with the hash of its token, so the current one
// is the one whose `token` equals ours.
import { sessionsResponseSchema } from '@ente/protocol/users.ts';
import { del, getJSON } from '@ente/shared/http.ts';
import { savedAuthToken } from '@ente/shared/storage/user.ts';

import { toAccountsError } from './errors.ts';

export interface ActiveSession {
  /** What revokes it: the token itself, or the hash the server showed. */
  token: string;
  /** e.g. "Chrome on Linux". */
  device: string;
  ip: string;
  /** Milliseconds since the epoch. */
  lastUsedAt: number;
  /** This browser's session. */
  current: boolean;
}

/** The sessions, this browser's first, the others by last use, newest first. */
export async function getActiveSessions(): Promise<ActiveSession[]> {
  try {
    const [{ sessions }, ownToken] = await Promise.all([
      getJSON('/users/sessions', sessionsResponseSchema, { auth: true }),
      savedAuthToken(),
    ]);
    return sessions
      .map((session) => ({
        token: session.token,
        device: session.prettyUA,
        ip: session.ip,
        lastUsedAt: Math.floor(session.lastUsedTime / 1000),
        current: session.token === ownToken,
      }))
      .sort((a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt - a.lastUsedAt);
  } catch (e) {
    throw toAccountsError(e, 'session');
  }
}

/** Signs the session out (an unknown one is already gone, which the server answers alike). */
export async function revokeSession(token: string): Promise<void> {
  try {
    await del('/users/session', { auth: true, params: { token } });
  } catch (e) {
    throw toAccountsError(e, 'session');
  }
}
