// Creating the session a login continues with after its first step: the 2FA session (services/two-factor.ts)
// and the passkey login session (services/passkeys.ts).
import { randomBytes } from 'node:crypto';

import { toB64Url } from '@ente/crypto';

import { insertLoginStepSession, type LoginStepSessionTable } from '../db/login-step-sessions.ts';
import { MICROS_PER_MINUTE } from '../lib/clock.ts';
import { sha256B64Url } from '../lib/hashing.ts';
import type { Context } from './context.ts';

/** A session ID of 32 random bytes as padded base64url, valid `minutes`; only its hash is stored. */
export async function createLoginStepSession(
  ctx: Context,
  table: LoginStepSessionTable,
  userID: number,
  minutes: number,
): Promise<string> {
  const sessionID = toB64Url(randomBytes(32));
  const now = ctx.clock.nowMicros();
  await insertLoginStepSession(ctx.db, table, {
    hash: sha256B64Url(sessionID),
    userID,
    now,
    expiresAt: now + minutes * MICROS_PER_MINUTE,
  });
  return sessionID;
}
