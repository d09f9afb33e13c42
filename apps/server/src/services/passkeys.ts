// Passkey state the other services need (docs/protocol.md#passkeys): the passkey login session that
// verification success hands out, and the passkey management token of the accounts app.
import type { FastifyRequest } from 'fastify';

import { randomBytes, toB64Url } from '@ente/crypto';
import { limits, middlewareErrorTexts } from '@ente/protocol';

import { middlewareError } from '../http/errors.ts';
import { MICROS_PER_MINUTE } from '../lib/clock.ts';
import { equalStrings, hmacSha256B64, sha256B64Url } from '../lib/hashing.ts';
import type { Context } from './context.ts';
import { isLiveSession } from './tokens.ts';

/** Whether the user has a live passkey (then a login asks for it). */
export async function hasLivePasskey(ctx: Context, userID: number): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('passkeys')
    .select('id')
    .where('user_id', '=', userID)
    .where('deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A passkey login session: 32 random bytes as padded base64url, valid 10 minutes; only its hash is stored. */
export async function createPasskeyLoginSession(ctx: Context, userID: number): Promise<string> {
  const sessionID = toB64Url(await randomBytes(32));
  const now = ctx.clock.nowMicros();
  await ctx.db
    .insertInto('passkey_login_sessions')
    .values({
      session_hash: sha256B64Url(sessionID),
      user_id: userID,
      created_at: now,
      expires_at: now + limits.passkeyLoginSessionMinutes * MICROS_PER_MINUTE,
    })
    .execute();
  return sessionID;
}

// [Note: Accounts token]
// `acc2.<userID>.<expiry µs>.<session>.<HMAC-SHA256 of "acc2.<userID>.<expiry>.<session>" under a key
// derived from the server secret, base64url>`, where <session> is the token hash (unpadded) of the session
// that asked for it. Nothing is stored: the signature is the proof, the expiry its end (30 minutes), and
// the session must still be live on every use, so logging that session out, revoking it from another
// device or a password change that ends it also ends the management token (as soon as it would end the
// session's own token: the same token cache answers both). The hash names the session in GET
// /users/sessions already; it is no credential. It is not a session token (those are random and looked
// up by hash), so the normal token check refuses it, and this check refuses session tokens.
const accountsTokenPrefix = 'acc2';

export function issueAccountsToken(ctx: Context, userID: number, sessionTokenHash: string): string {
  const expiry = ctx.clock.nowMicros() + limits.accountsTokenMinutes * MICROS_PER_MINUTE;
  const payload = `${accountsTokenPrefix}.${userID}.${expiry}.${sessionTokenHash.replace(/=+$/, '')}`;
  return `${payload}.${signature(ctx, payload)}`;
}

/** The user of the accounts token on a request (X-Auth-Token), or the token check's 401. */
export async function accountsTokenUser(ctx: Context, request: FastifyRequest): Promise<number> {
  const header = request.headers['x-auth-token'];
  const token = typeof header === 'string' ? header : '';
  if (token === '') throw middlewareError(401, middlewareErrorTexts.missingToken);
  const match = /^acc2\.(\d{1,16})\.(\d{1,17})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) throw middlewareError(401, middlewareErrorTexts.invalidToken);
  const [, user = '', expiry = '', session = '', mac = ''] = match;
  if (!equalStrings(mac, signature(ctx, `${accountsTokenPrefix}.${user}.${expiry}.${session}`))) {
    throw middlewareError(401, middlewareErrorTexts.invalidToken);
  }
  if (Number(expiry) < ctx.clock.nowMicros()) throw middlewareError(401, middlewareErrorTexts.tokenExpired);
  const userID = Number(user);
  if (!(await isLiveSession(ctx, `${session}=`, userID))) throw middlewareError(401, middlewareErrorTexts.invalidToken);
  return userID;
}

function signature(ctx: Context, payload: string): string {
  return hmacSha256B64(ctx.secrets.accountsTokenKey, payload)
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
