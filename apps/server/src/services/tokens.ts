// Auth tokens (docs/protocol.md#auth-tokens): 32 random bytes as padded base64url, handed out once and
// stored only as a SHA-256 (docs/decisions.md#api-server), scoped to the app that asked for them,
// refused after 365 idle days.

import { randomBytes } from 'node:crypto';

import { fromB64Url, sealBoxB64, toB64Url } from '@ente/crypto';
import { limits, middlewareErrorTexts } from '@ente/protocol';

import * as tokensDb from '../db/tokens.ts';
import type { ClientApp, RequestClient } from '../http/client-app.ts';
import { middlewareError } from '../http/errors.ts';
import { MICROS_PER_DAY, MICROS_PER_HOUR } from '../lib/clock.ts';
import { sha256B64Url } from '../lib/hashing.ts';
import type { Context } from './context.ts';

export interface AuthenticatedSession {
  userID: number;
  app: ClientApp;
  tokenHash: string;
  /** The token as the client sent it (needed to tell the client which session is its own). */
  token: string;
}

/** Creates a token for `userID` in `app` and returns it; only its hash is stored. */
export async function issueToken(ctx: Context, userID: number, app: ClientApp, client: RequestClient) {
  const token = toB64Url(randomBytes(32));
  const now = ctx.clock.nowMicros();
  await tokensDb.insertToken(ctx.db, { hash: sha256B64Url(token), userID, app, ...sessionClientOf(client), now });
  return token;
}

/** The IP and user agent a session row records (GET /users/sessions shows them), cut to their columns. */
function sessionClientOf(client: RequestClient) {
  return { ip: client.ip.slice(0, 64), userAgent: (client.userAgent ?? '').slice(0, 512) || null };
}

/** The token sealed to the user's X25519 public key: b64 of 80 bytes (the raw 32 bytes are sealed). */
export async function sealToken(token: string, publicKey: string): Promise<string> {
  return sealBoxB64(fromB64Url(token), publicKey);
}

/**
 * Resolves the token of a request (X-Auth-Token, else ?token=) to its session, or throws the 401 of
 * docs/protocol.md#errors. Refreshes last-used time, IP and user agent at most once an hour, so that a busy
 * client does not turn every read into a write; within that hour a cached answer saves the read too
 * (See: [Note: Cache invalidation]). A cached answer comes back synchronously, without a promise:
 * this runs before every authenticated request, including the hot sync poll.
 */
export function authenticate(
  ctx: Context,
  token: string,
  client: RequestClient,
  app: ClientApp,
): AuthenticatedSession | Promise<AuthenticatedSession> {
  if (token === '') throw middlewareError(401, middlewareErrorTexts.missingToken);
  if (token.length > 256) throw middlewareError(401, middlewareErrorTexts.invalidToken);
  const tokenHash = sha256B64Url(token);
  const cached = ctx.cache.token(tokenHash);
  if (cached && cached.app === app && ctx.clock.nowMicros() - cached.lastUsedAt <= MICROS_PER_HOUR) {
    return { userID: cached.userID, app, tokenHash, token };
  }
  return authenticateFromDatabase(ctx, client, app, token, tokenHash);
}

async function authenticateFromDatabase(
  ctx: Context,
  client: RequestClient,
  app: ClientApp,
  token: string,
  tokenHash: string,
): Promise<AuthenticatedSession> {
  const now = ctx.clock.nowMicros();
  const generation = ctx.cache.tokensGeneration();
  const row = await sessionRow(ctx, tokenHash);
  if (row?.app !== app) throw middlewareError(401, middlewareErrorTexts.invalidToken);
  let lastUsed = row.lastUsedAt;
  if (isIdle(ctx, lastUsed)) throw middlewareError(401, middlewareErrorTexts.tokenExpired);
  if (now - lastUsed > MICROS_PER_HOUR) {
    await tokensDb.recordTokenUse(ctx.db, tokenHash, { ...sessionClientOf(client), now });
    lastUsed = now;
  }
  const { userID } = row;
  ctx.cache.putToken(tokenHash, { userID, app, lastUsedAt: lastUsed }, generation);
  return { userID, app, tokenHash, token };
}

/** The session of a token hash that was neither logged out nor revoked, whatever its app and idle time. */
async function sessionRow(ctx: Context, tokenHash: string) {
  const row = await tokensDb.liveTokenRow(ctx.db, tokenHash);
  return row && { userID: Number(row.user_id), app: row.app as ClientApp, lastUsedAt: Number(row.last_used_at) };
}

/** Whether a session last used at `lastUsedAt` went unused too long (docs/protocol.md#auth-tokens). */
function isIdle(ctx: Context, lastUsedAt: number): boolean {
  return ctx.clock.nowMicros() - lastUsedAt > limits.tokenIdleDays * MICROS_PER_DAY;
}

/**
 * Whether the session of `tokenHash` is live (not logged out, revoked or idle too long) and `userID`'s,
 * for credentials bound to a session (the passkey management token). It answers from the token cache
 * when this process has the session there, as the token check does, so a session that ends stops its
 * bound credentials exactly when it stops its own token (See: [Note: Cache invalidation]).
 */
export async function isLiveSession(ctx: Context, tokenHash: string, userID: number): Promise<boolean> {
  const cached = ctx.cache.token(tokenHash);
  if (cached) return cached.userID === userID;
  const generation = ctx.cache.tokensGeneration();
  const row = await sessionRow(ctx, tokenHash);
  if (row?.userID !== userID || isIdle(ctx, row.lastUsedAt)) return false;
  ctx.cache.putToken(tokenHash, row, generation);
  return true;
}
