// Account routes (docs/protocol.md#e-mail-codes to docs/protocol.md#sessions-and-logout): e-mail codes
// and their verification, key attributes, recovery key, e-mail change, session validity, details,
// e-mail MFA, public keys, and sessions.
import type { FastifyInstance } from 'fastify';

import {
  changeEmailRequestSchema,
  limits,
  publicKeyQuerySchema,
  sendOttRequestSchema,
  setEmailMfaRequestSchema,
  setKeyAttributesRequestSchema,
  setRecoveryKeyRequestSchema,
  terminateSessionQuerySchema,
  userDetailsQuerySchema,
  verifyEmailRequestSchema,
  type PublicKeyResponse,
  type SessionsResponse,
  type SessionValidityResponse,
  type UserDetailsResponse,
} from '@ente/protocol';

import { isUniqueViolation } from '../db/errors.ts';
import { limitAddress } from '../http/client-address.ts';
import { apiError, plainError } from '../http/errors.ts';
import { sessionOf } from '../http/token-check.ts';
import { checkKdfStrength, parseInput } from '../http/validation.ts';
import { sha256B64Url } from '../lib/hashing.ts';
import { verificationSuccess } from '../services/authorization.ts';
import type { Context } from '../services/context.ts';
import { consumeOtt, sendOtt } from '../services/otts.ts';
import { findOrCreateUser, keyAttributesOf, userByEmail } from '../services/users.ts';

export function registerUserRoutes(app: FastifyInstance, ctx: Context): void {
  app.post('/users/ott', { config: { rateLimit: 'ip' } }, async (request, reply) => {
    const body = parseInput(sendOttRequestSchema, request.body, 'body');
    await sendOtt(ctx, { email: body.email, purpose: body.purpose, app: request.clientApp, ip: limitAddress(request) });
    return reply.code(200).send();
  });

  app.post('/users/verify-email', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(verifyEmailRequestSchema, request.body, 'body');
    await consumeOtt(ctx, { email: body.email, app: request.clientApp, ott: body.ott, ip: limitAddress(request) });
    // Checked once the code is right, so that only the address's owner learns it has no account.
    if (ctx.config.DISABLE_REGISTRATION && !(await userByEmail(ctx, body.email))) throw plainError(403);
    const userID = await findOrCreateUser(ctx, body.email, body.source);
    return verificationSuccess(ctx, userID, request.clientApp, request);
  });

  app.put('/users/attributes', { config: { auth: true } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const { keyAttributes: attrs } = parseInput(setKeyAttributesRequestSchema, request.body, 'body');
    checkKdfStrength(attrs.memLimit, attrs.opsLimit);
    const inserted = await ctx.db
      .insertInto('key_attributes')
      .values({
        user_id: userID,
        kek_salt: attrs.kekSalt,
        kek_hash: attrs.kekHash ?? '',
        encrypted_key: attrs.encryptedKey,
        key_decryption_nonce: attrs.keyDecryptionNonce,
        public_key: attrs.publicKey,
        encrypted_secret_key: attrs.encryptedSecretKey,
        secret_key_decryption_nonce: attrs.secretKeyDecryptionNonce,
        mem_limit: attrs.memLimit,
        ops_limit: attrs.opsLimit,
        master_key_encrypted_with_recovery_key: attrs.masterKeyEncryptedWithRecoveryKey || null,
        master_key_decryption_nonce: attrs.masterKeyDecryptionNonce || null,
        recovery_key_encrypted_with_master_key: attrs.recoveryKeyEncryptedWithMasterKey || null,
        recovery_key_decryption_nonce: attrs.recoveryKeyDecryptionNonce || null,
        created_at: ctx.clock.nowMicros(),
      })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!inserted) throw plainError(403);
    return reply.code(200).send();
  });

  app.put('/users/recovery-key', { config: { auth: true } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const body = parseInput(setRecoveryKeyRequestSchema, request.body, 'body');
    const existing = await keyAttributesOf(ctx, userID);
    if (!existing) throw plainError(404);
    const updated = await ctx.db
      .updateTable('key_attributes')
      .set({
        master_key_encrypted_with_recovery_key: body.masterKeyEncryptedWithRecoveryKey,
        master_key_decryption_nonce: body.masterKeyDecryptionNonce,
        recovery_key_encrypted_with_master_key: body.recoveryKeyEncryptedWithMasterKey,
        recovery_key_decryption_nonce: body.recoveryKeyDecryptionNonce,
      })
      .where('user_id', '=', userID)
      .where('master_key_encrypted_with_recovery_key', 'is', null)
      .returning('user_id')
      .executeTakeFirst();
    // Museum answers a second upload with 500; a conflict is what it is.
    if (!updated) throw apiError(409, 'CONFLICT', 'recovery key is already set');
    return reply.code(200).send();
  });

  app.post('/users/change-email', { config: { auth: true, rateLimit: 'user' } }, async (request, reply) => {
    const { userID, app: clientApp } = sessionOf(request);
    const body = parseInput(changeEmailRequestSchema, request.body, 'body');
    await consumeOtt(ctx, { email: body.email, app: clientApp, ott: body.ott, ip: limitAddress(request) });
    // Checked once the code is right (a taken address is mailed a notice, not a code), so that only the
    // address's owner learns it is taken.
    if (await userByEmail(ctx, body.email)) throw plainError(403);
    const user = await ctx.db
      .selectFrom('users')
      .select('email')
      .where('user_id', '=', userID)
      .executeTakeFirstOrThrow();
    const changed = await ctx.db
      .updateTable('users')
      .set({ email: body.email })
      .where('user_id', '=', userID)
      .executeTakeFirst()
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw plainError(403);
        throw error;
      });
    if (Number(changed.numUpdatedRows) !== 1) throw plainError(404);
    // The change is made; a notice that cannot be sent is logged, not turned into a failure.
    await ctx.mailer
      .send({
        to: user.email,
        subject: 'Your e-mail address was changed',
        text: `The e-mail address of your account was changed to ${body.email}. If you did not do this, contact support.`,
      })
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'could not send the e-mail change notice'));
    return reply.code(200).send();
  });

  app.get('/users/session-validity/v2', { config: { auth: true } }, async (request) => {
    const keyAttributes = await keyAttributesOf(ctx, sessionOf(request).userID);
    return (
      keyAttributes ? { hasSetKeys: true, keyAttributes } : { hasSetKeys: false }
    ) satisfies SessionValidityResponse;
  });

  app.get('/users/details/v2', { config: { auth: true } }, async (request) => {
    const { userID } = sessionOf(request);
    const query = parseInput(userDetailsQuerySchema, request.query, 'query');
    const user = await ctx.db
      .selectFrom('users')
      .leftJoin('srp_auth', 'srp_auth.user_id', 'users.user_id')
      .select(['users.email', 'users.is_email_mfa_enabled', 'users.is_two_factor_enabled', 'srp_auth.srp_user_id'])
      .where('users.user_id', '=', userID)
      .executeTakeFirstOrThrow();
    const details: UserDetailsResponse = {
      email: user.email,
      usage: 0,
      storageBonus: 0,
      subscription: freeSubscription(userID),
      profileData: {
        canDisableEmailMFA: user.srp_user_id !== null,
        isEmailMFAEnabled: user.is_email_mfa_enabled,
        isTwoFactorEnabled: user.is_two_factor_enabled,
        passkeyCount: 0,
      },
      bonusData: { storageBonuses: [] },
    };
    if (query.memoryCount === 'true') details.fileCount = 0;
    return details;
  });

  app.put('/users/email-mfa', { config: { auth: true } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const { isEnabled } = parseInput(setEmailMfaRequestSchema, request.body, 'body');
    if (!isEnabled) {
      const srp = await ctx.db
        .selectFrom('srp_auth')
        .select('user_id')
        .where('user_id', '=', userID)
        .executeTakeFirst();
      if (!srp) throw apiError(409, 'CONFLICT', 'set up a password (SRP) before turning e-mail MFA off');
    }
    await ctx.db.updateTable('users').set({ is_email_mfa_enabled: isEnabled }).where('user_id', '=', userID).execute();
    return reply.code(200).send();
  });

  app.get('/users/public-key', { config: { auth: true, rateLimit: 'publicKey' } }, async (request) => {
    const { email } = parseInput(publicKeyQuerySchema, request.query, 'query');
    const row = await ctx.db
      .selectFrom('users')
      .innerJoin('key_attributes', 'key_attributes.user_id', 'users.user_id')
      .select('key_attributes.public_key')
      .where('users.email', '=', email)
      .executeTakeFirst();
    if (!row) throw apiError(404, 'NOT_FOUND', 'no public key for this e-mail');
    return { publicKey: row.public_key } satisfies PublicKeyResponse;
  });

  app.post('/users/logout', { config: { auth: true } }, async (request) => {
    const { tokenHash, userID } = sessionOf(request);
    await ctx.db.updateTable('tokens').set({ is_deleted: true }).where('token_hash', '=', tokenHash).execute();
    await ctx.invalidator.publish('tokens', userID);
    return {};
  });

  app.get('/users/sessions', { config: { auth: true } }, async (request) => {
    const session = sessionOf(request);
    const rows = await ctx.db
      .selectFrom('tokens')
      .select(['token_hash', 'created_at', 'last_used_at', 'ip', 'user_agent'])
      .where('user_id', '=', session.userID)
      .where('app', '=', session.app)
      .where('is_deleted', '=', false)
      .orderBy('created_at', 'desc')
      .execute();
    const now = ctx.clock.nowMicros();
    return {
      sessions: rows
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
        })),
    } satisfies SessionsResponse;
  });

  app.delete('/users/session', { config: { auth: true } }, async (request) => {
    const { userID } = sessionOf(request);
    const { token } = parseInput(terminateSessionQuerySchema, request.query, 'query');
    await ctx.db
      .updateTable('tokens')
      .set({ is_deleted: true })
      .where('user_id', '=', userID)
      .where((eb) => eb.or([eb('token_hash', '=', sha256B64Url(token)), eb('token_hash', '=', token)]))
      .execute();
    await ctx.invalidator.publish('tokens', userID);
    return {};
  });
}

function freeSubscription(userID: number): UserDetailsResponse['subscription'] {
  return {
    id: 0,
    userID,
    productID: 'free',
    storage: 0,
    originalTransactionID: 'none',
    expiryTime: 0,
    paymentProvider: '',
    attributes: {},
    price: '',
    period: '',
  };
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
