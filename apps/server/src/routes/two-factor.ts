// Two-factor (TOTP) routes (docs/protocol.md#two-factor): setup → enable on the account; verify, recover and
// remove during login, against the 2FA session that verification success handed out. Recover and remove
// also serve passkey recovery (`twoFactorType=passkey`, against the passkey login session).
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import QRCode from 'qrcode';

import { decryptBoxBytes, encryptBoxB64, randomBytes } from '@ente/crypto';
import {
  enableTwoFactorRequestSchema,
  limits,
  removeTwoFactorRequestSchema,
  twoFactorRecoverQuerySchema,
  verifyTwoFactorRequestSchema,
  type TwoFactorRecoverResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatusResponse,
} from '@ente/protocol';

import { badRequest, plainError } from '../http/errors.ts';
import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import { MICROS_PER_MINUTE, MICROS_PER_SECOND } from '../lib/clock.ts';
import { equalStrings, hmacSha256B64, sha256B64Url } from '../lib/hashing.ts';
import { base32Decode, base32Encode, isValidTotp } from '../lib/totp.ts';
import { twoFactorSuccess } from '../services/authorization.ts';
import type { Context } from '../services/context.ts';
import { hasKeyAttributes } from '../services/users.ts';

export function registerTwoFactorRoutes(app: FastifyInstance, ctx: Context): void {
  app.get('/users/two-factor/status', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const user = await ctx.db
      .selectFrom('users')
      .select('is_two_factor_enabled')
      .where('user_id', '=', sessionOf(request).userID)
      .executeTakeFirstOrThrow();
    return { status: user.is_two_factor_enabled } satisfies TwoFactorStatusResponse;
  });

  app.post('/users/two-factor/setup', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const { userID } = sessionOf(request);
    if (!(await hasKeyAttributes(ctx, userID))) throw plainError(404);
    const user = await ctx.db
      .selectFrom('users')
      .select('email')
      .where('user_id', '=', userID)
      .executeTakeFirstOrThrow();
    const secretCode = base32Encode(await randomBytes(20));
    const sealed = await encryptBoxB64(new TextEncoder().encode(secretCode), ctx.secrets.totpEncryptionKey);
    const now = ctx.clock.nowMicros();
    await ctx.db
      .insertInto('temp_two_factor')
      .values({
        user_id: userID,
        encrypted_secret: sealed.encryptedData,
        secret_nonce: sealed.nonce,
        created_at: now,
        expires_at: now + limits.twoFactorSessionMinutes * MICROS_PER_MINUTE,
      })
      .execute();
    const uri =
      `otpauth://totp/ente:${encodeURIComponent(user.email)}` +
      `?algorithm=SHA1&digits=6&issuer=ente&period=30&secret=${secretCode}`;
    const png = await QRCode.toBuffer(uri, { type: 'png', width: 200, margin: 1, errorCorrectionLevel: 'M' });
    return { secretCode, qrCode: png.toString('base64') } satisfies TwoFactorSetupResponse;
  });

  app.post('/users/two-factor/enable', { config: { auth: true, rateLimit: 'user' } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const body = parseInput(enableTwoFactorRequestSchema, request.body, 'body');
    const now = ctx.clock.nowMicros();
    const pending = await ctx.db
      .selectFrom('temp_two_factor')
      .select(['encrypted_secret', 'secret_nonce'])
      .where('user_id', '=', userID)
      .where('expires_at', '>', now)
      .execute();
    let matched: { secretCode: string; encryptedData: string; nonce: string } | undefined;
    for (const row of pending) {
      const secretCode = await openSecret(ctx, row.encrypted_secret, row.secret_nonce);
      if (isValidTotp(base32Decode(secretCode), body.code, now / MICROS_PER_SECOND)) {
        matched = { secretCode, encryptedData: row.encrypted_secret, nonce: row.secret_nonce };
      }
    }
    if (!matched) throw plainError(401);
    const secret = matched;
    await ctx.db.transaction().execute(async (tx) => {
      const values = {
        encrypted_secret: secret.encryptedData,
        secret_nonce: secret.nonce,
        secret_hash: hmacSha256B64(ctx.secrets.recoveryHashKey, secret.secretCode),
        encrypted_two_factor_secret: body.encryptedTwoFactorSecret,
        two_factor_secret_decryption_nonce: body.twoFactorSecretDecryptionNonce,
        created_at: now,
      };
      await tx
        .insertInto('two_factor')
        .values({ user_id: userID, ...values })
        .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
        .execute();
      await tx.updateTable('users').set({ is_two_factor_enabled: true }).where('user_id', '=', userID).execute();
      await tx.deleteFrom('temp_two_factor').where('user_id', '=', userID).execute();
    });
    return reply.code(200).send();
  });

  app.post('/users/two-factor/verify', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(verifyTwoFactorRequestSchema, request.body, 'body');
    const session = await liveSession(ctx, body.sessionID);
    if (session.wrong_attempts >= limits.maxTwoFactorWrongAttempts) throw plainError(429);
    const userID = Number(session.user_id);
    const stored = await ctx.db
      .selectFrom('two_factor')
      .innerJoin('users', 'users.user_id', 'two_factor.user_id')
      .select(['two_factor.encrypted_secret', 'two_factor.secret_nonce', 'users.is_two_factor_enabled'])
      .where('two_factor.user_id', '=', userID)
      .executeTakeFirst();
    if (!stored?.is_two_factor_enabled) throw badRequest('two-factor authentication is not enabled');
    const secretCode = await openSecret(ctx, stored.encrypted_secret, stored.secret_nonce);
    const now = ctx.clock.nowMicros();
    const valid = isValidTotp(base32Decode(secretCode), body.code, now / MICROS_PER_SECOND);
    // A code counts once per user: remembering it is the check (replay protection, docs/protocol.md#two-factor).
    const fresh =
      valid &&
      (await ctx.db
        .insertInto('two_factor_used_codes')
        .values({ user_id: userID, code_hash: sha256B64Url(`${userID}:${body.code}`), used_at: now })
        .onConflict((conflict) => conflict.columns(['user_id', 'code_hash']).doNothing())
        .returning('user_id')
        .executeTakeFirst()) !== undefined;
    if (!fresh) {
      await ctx.db
        .updateTable('two_factor_sessions')
        .set({ wrong_attempts: sql<number>`wrong_attempts + 1` })
        .where('session_hash', '=', sha256B64Url(body.sessionID))
        .execute();
      throw plainError(401);
    }
    return twoFactorSuccess(ctx, userID, request.clientApp, request);
  });

  app.get('/users/two-factor/recover', { config: { rateLimit: 'ip' } }, async (request) => {
    const query = parseInput(twoFactorRecoverQuerySchema, request.query, 'query');
    if (query.twoFactorType === 'passkey') {
      const recovery = await passkeyRecoveryOf(ctx, query.sessionID);
      return {
        encryptedSecret: recovery.user_secret_cipher,
        secretDecryptionNonce: recovery.user_secret_nonce,
      } satisfies TwoFactorRecoverResponse;
    }
    const session = await liveSession(ctx, query.sessionID);
    const row = await ctx.db
      .selectFrom('two_factor')
      .select(['encrypted_two_factor_secret', 'two_factor_secret_decryption_nonce'])
      .where('user_id', '=', session.user_id)
      .executeTakeFirst();
    if (!row) throw plainError(404);
    return {
      encryptedSecret: row.encrypted_two_factor_secret,
      secretDecryptionNonce: row.two_factor_secret_decryption_nonce,
    } satisfies TwoFactorRecoverResponse;
  });

  app.post('/users/two-factor/remove', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(removeTwoFactorRequestSchema, request.body, 'body');
    if (body.twoFactorType === 'passkey') {
      // The passkeys stay (museum): the person signs in, and can remove a lost one at /passkeys.
      const recovery = await passkeyRecoveryOf(ctx, body.sessionID);
      if (!equalStrings(hmacSha256B64(ctx.secrets.recoveryHashKey, body.secret), recovery.secret_hash)) {
        throw plainError(403);
      }
      return twoFactorSuccess(ctx, Number(recovery.user_id), request.clientApp, request);
    }
    const session = await liveSession(ctx, body.sessionID);
    const userID = Number(session.user_id);
    const row = await ctx.db
      .selectFrom('two_factor')
      .select('secret_hash')
      .where('user_id', '=', userID)
      .executeTakeFirst();
    if (!row || !equalStrings(hmacSha256B64(ctx.secrets.recoveryHashKey, body.secret), row.secret_hash)) {
      throw plainError(403);
    }
    await disableTwoFactor(ctx, userID);
    return twoFactorSuccess(ctx, userID, request.clientApp, request);
  });

  app.post('/users/two-factor/disable', { config: { auth: true, rateLimit: 'user' } }, async (request, reply) => {
    await disableTwoFactor(ctx, sessionOf(request).userID);
    return reply.code(200).send();
  });
}

/**
 * The passkey recovery of the user of an unexpired passkey login session: 404 without the session, 400
 * when the account never configured it.
 */
async function passkeyRecoveryOf(ctx: Context, sessionID: string) {
  const session = await ctx.db
    .selectFrom('passkey_login_sessions')
    .select('user_id')
    .where('session_hash', '=', sha256B64Url(sessionID))
    .where('expires_at', '>', ctx.clock.nowMicros())
    .executeTakeFirst();
  if (!session) throw plainError(404);
  const recovery = await ctx.db
    .selectFrom('passkey_recovery')
    .select(['user_id', 'secret_hash', 'user_secret_cipher', 'user_secret_nonce'])
    .where('user_id', '=', session.user_id)
    .executeTakeFirst();
  if (!recovery) throw badRequest('Passkey reset is not configured');
  return recovery;
}

/** The unexpired 2FA session with this ID, or 404 (the web logs out on it). */
async function liveSession(ctx: Context, sessionID: string) {
  const session = await ctx.db
    .selectFrom('two_factor_sessions')
    .select(['user_id', 'wrong_attempts'])
    .where('session_hash', '=', sha256B64Url(sessionID))
    .where('expires_at', '>', ctx.clock.nowMicros())
    .executeTakeFirst();
  if (!session) throw plainError(404);
  return session;
}

async function openSecret(ctx: Context, encryptedData: string, nonce: string): Promise<string> {
  return new TextDecoder().decode(await decryptBoxBytes({ encryptedData, nonce }, ctx.secrets.totpEncryptionKey));
}

async function disableTwoFactor(ctx: Context, userID: number): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('two_factor').where('user_id', '=', userID).execute();
    await tx.updateTable('users').set({ is_two_factor_enabled: false }).where('user_id', '=', userID).execute();
  });
}
