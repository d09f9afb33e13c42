// The account rules (docs/protocol.md#e-mail-codes to docs/protocol.md#sessions-and-logout): users and
// their key attributes, the recovery key, the e-mail address and e-mail MFA, public keys, and the
// sessions a user sees and ends. The queries are db/users.ts's and db/tokens.ts's.
import type { Selectable } from 'kysely';

import {
  limits,
  type KeyAttributesResponse,
  type SessionsResponse,
  type SetKeyAttributesRequest,
  type SetRecoveryKeyRequest,
} from '@ente/protocol';

import { isUniqueViolation } from '../db/errors.ts';
import type { KeyAttributesTable } from '../db/schema.ts';
import { hasSrpAuth } from '../db/srp.ts';
import * as tokensDb from '../db/tokens.ts';
import * as usersDb from '../db/users.ts';
import type { LoginFacts } from '../db/users.ts';
import { apiError, plainError } from '../http/errors.ts';
import { sha256B64Url } from '../lib/hashing.ts';
import type { Context } from './context.ts';
import type { AuthenticatedSession } from './tokens.ts';

/** The user's key attributes in wire form (unset recovery fields and kekHash as ""), or undefined. */
export async function keyAttributesOf(ctx: Context, userID: number): Promise<KeyAttributesResponse | undefined> {
  const row = await usersDb.keyAttributesRowOf(ctx.db, userID);
  return row ? keyAttributesToWire(row) : undefined;
}

/** The key attributes within an account's login facts (db/users.ts's loginFactsOf), or undefined without any. */
export function keyAttributesInFacts(facts: LoginFacts): KeyAttributesResponse | undefined {
  return factsHaveKeyAttributes(facts) ? keyAttributesToWire(facts) : undefined;
}

function factsHaveKeyAttributes(facts: LoginFacts): facts is LoginFacts & Selectable<KeyAttributesTable> {
  return facts.user_id !== null;
}

export function keyAttributesToWire(row: Selectable<KeyAttributesTable>): KeyAttributesResponse {
  return {
    kekSalt: row.kek_salt,
    opsLimit: Number(row.ops_limit),
    memLimit: Number(row.mem_limit),
    encryptedKey: row.encrypted_key,
    keyDecryptionNonce: row.key_decryption_nonce,
    publicKey: row.public_key,
    encryptedSecretKey: row.encrypted_secret_key,
    secretKeyDecryptionNonce: row.secret_key_decryption_nonce,
    masterKeyEncryptedWithRecoveryKey: row.master_key_encrypted_with_recovery_key ?? '',
    masterKeyDecryptionNonce: row.master_key_decryption_nonce ?? '',
    recoveryKeyEncryptedWithMasterKey: row.recovery_key_encrypted_with_master_key ?? '',
    recoveryKeyDecryptionNonce: row.recovery_key_decryption_nonce ?? '',
    kekHash: row.kek_hash,
  };
}

/** Looks a user up by normalised e-mail. */
export async function userByEmail(ctx: Context, email: string) {
  return usersDb.userByEmail(ctx.db, email);
}

export async function hasKeyAttributes(ctx: Context, userID: number): Promise<boolean> {
  return usersDb.hasKeyAttributes(ctx.db, userID);
}

/** The user with this e-mail, created (unless registration is disabled: 403) when there is none. */
export async function findOrCreateUser(ctx: Context, email: string, source: string | undefined): Promise<number> {
  const existing = await userByEmail(ctx, email);
  if (existing) return Number(existing.user_id);
  if (ctx.config.DISABLE_REGISTRATION) throw plainError(403);
  const created = await usersDb.insertUserIfAbsent(ctx.db, email, source ?? null, ctx.clock.nowMicros());
  if (created !== undefined) return created;
  // Created by a concurrent request a moment ago.
  const raced = await userByEmail(ctx, email);
  if (!raced) throw new Error('user vanished while being created');
  return Number(raced.user_id);
}

/** Stores the user's key attributes once (a second time: 403). The caller has checked the KDF. */
export async function setKeyAttributes(
  ctx: Context,
  userID: number,
  attrs: SetKeyAttributesRequest['keyAttributes'],
): Promise<void> {
  if (!(await usersDb.insertKeyAttributesIfAbsent(ctx.db, userID, attrs, ctx.clock.nowMicros()))) {
    throw plainError(403);
  }
}

/** Stores the recovery key's wrappings once: 404 without key attributes, 409 when they are set. */
export async function setRecoveryKey(ctx: Context, userID: number, body: SetRecoveryKeyRequest): Promise<void> {
  if (!(await keyAttributesOf(ctx, userID))) throw plainError(404);
  // Museum answers a second upload with 500; a conflict is what it is.
  if (!(await usersDb.setRecoveryKeyIfUnset(ctx.db, userID, body))) {
    throw apiError(409, 'CONFLICT', 'recovery key is already set');
  }
}

/**
 * Moves the account to a new address (its code already checked): 403 when the address is taken, checked
 * only now so that only the address's owner learns it. The old address gets a notice.
 */
export async function changeEmail(ctx: Context, userID: number, email: string): Promise<void> {
  if (await userByEmail(ctx, email)) throw plainError(403);
  const oldEmail = await usersDb.emailOf(ctx.db, userID);
  const changed = await usersDb.updateEmail(ctx.db, userID, email).catch((error: unknown) => {
    if (isUniqueViolation(error)) throw plainError(403);
    throw error;
  });
  if (!changed) throw plainError(404);
  // The change is made; a notice that cannot be sent is logged, not turned into a failure.
  await ctx.mailer
    .send({
      to: oldEmail,
      subject: 'Your e-mail address was changed',
      text: `The e-mail address of your account was changed to ${email}. If you did not do this, contact support.`,
    })
    .catch((error: unknown) => ctx.log.warn({ err: error }, 'could not send the e-mail change notice'));
}

/** The e-mail and second-factor state of GET /users/details/v2. */
export async function userDetailsOf(ctx: Context, userID: number) {
  const user = await usersDb.detailsOf(ctx.db, userID);
  return {
    email: user.email,
    canDisableEmailMFA: user.srp_user_id !== null,
    isEmailMFAEnabled: user.is_email_mfa_enabled,
    isTwoFactorEnabled: user.is_two_factor_enabled,
  };
}

/** Turns e-mail MFA on or off; off only with a password (SRP) to sign in with instead (else 409). */
export async function setEmailMfa(ctx: Context, userID: number, isEnabled: boolean): Promise<void> {
  if (!isEnabled && !(await hasSrpAuth(ctx.db, userID))) {
    throw apiError(409, 'CONFLICT', 'set up a password (SRP) before turning e-mail MFA off');
  }
  await usersDb.setEmailMfa(ctx.db, userID, isEnabled);
}

/** The public key of the account with this e-mail, or 404. */
export async function publicKeyOf(ctx: Context, email: string): Promise<string> {
  const publicKey = await usersDb.publicKeyByEmail(ctx.db, email);
  if (publicKey === undefined) throw apiError(404, 'NOT_FOUND', 'no public key for this e-mail');
  return publicKey;
}

/** Ends the session of this request. */
export async function logout(ctx: Context, session: AuthenticatedSession): Promise<void> {
  await tokensDb.deleteToken(ctx.db, session.tokenHash);
  await ctx.invalidator.publish('tokens', session.userID);
}

/** The user's live sessions in this session's app, newest first. */
export async function sessionsOf(ctx: Context, session: AuthenticatedSession): Promise<SessionsResponse['sessions']> {
  const rows = await tokensDb.tokensOf(ctx.db, session.userID, session.app);
  const now = ctx.clock.nowMicros();
  return rows
    .filter((row) => now - Number(row.last_used_at) <= limits.tokenIdleDays * 86_400_000_000)
    .map((row) => ({
      // Only hashes are stored, so other sessions are named by their hash (which DELETE
      // /users/session accepts); the caller's own session shows the token it sent.
      token: row.token_hash === session.tokenHash ? session.token : row.token_hash,
      creationTime: Number(row.created_at),
      lastUsedTime: Number(row.last_used_at),
      ip: row.ip || 'Unknown IP',
      ua: row.user_agent || 'Unknown Device',
      prettyUA: prettyUserAgent(row.user_agent),
    }));
}

/** Ends one of the user's sessions, named by its token or by its hash. */
export async function endSession(ctx: Context, userID: number, token: string): Promise<void> {
  await tokensDb.deleteTokenOfUser(ctx.db, userID, sha256B64Url(token), token);
  await ctx.invalidator.publish('tokens', userID);
}

/** "Chrome on Linux"-style label from a User-Agent header. */
function prettyUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'Unknown Device';
  const named = (names: readonly (readonly [marker: string, name: string])[]) =>
    names.find(([marker]) => userAgent.includes(marker))?.[1];
  const browser = named(browsers) ?? userAgent.split(/[\s/]/, 1)[0] ?? userAgent;
  const os = named(systems);
  return os ? `${browser} on ${os}` : browser;
}

const browsers = [
  ['Edg/', 'Edge'],
  ['Firefox/', 'Firefox'],
  ['Chrome/', 'Chrome'],
  ['Safari/', 'Safari'],
] as const;

const systems = [
  ['Android', 'Android'],
  ['iPhone', 'iOS'],
  ['iPad', 'iPadOS'],
  ['Mac OS X', 'macOS'],
  ['Windows', 'Windows'],
  ['Linux', 'Linux'],
] as const;
