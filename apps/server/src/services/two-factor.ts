// The two-factor (TOTP) rules (docs/protocol.md#two-factor): setup → enable on the account; verify,
// recover and remove during login, against the 2FA session that verification success handed out. Recover
// and remove also serve passkey recovery (`twoFactorType=passkey`, against the passkey login session).
// The queries are db/two-factor.ts's.
import QRCode from 'qrcode';

import { decryptBoxBytes, encryptBoxB64, randomBytes } from '@ente/crypto';
import { limits, type TwoFactorRecoverResponse, type TwoFactorType } from '@ente/protocol';

import * as twoFactorDb from '../db/two-factor.ts';
import { emailOf, isTwoFactorEnabled, setTwoFactorEnabled } from '../db/users.ts';
import type { ClientApp, RequestClient } from '../http/client-app.ts';
import { badRequest, plainError } from '../http/errors.ts';
import { MICROS_PER_MINUTE, MICROS_PER_SECOND } from '../lib/clock.ts';
import { equalStrings, hmacSha256B64, sha256B64Url } from '../lib/hashing.ts';
import { base32Decode, base32Encode, isValidTotp } from '../lib/totp.ts';
import { twoFactorSuccess } from './authorization.ts';
import type { Context } from './context.ts';
import { createLoginStepSession } from './login-step-sessions.ts';
import { isPasskeyRecoverySecret, passkeyRecoveryOfLoginSession } from './passkeys.ts';
import { hasKeyAttributes } from './users.ts';

export async function twoFactorStatusOf(ctx: Context, userID: number): Promise<boolean> {
  return isTwoFactorEnabled(ctx.db, userID);
}

/** A new secret awaiting its first code (404 without key attributes): the secret and its QR code. */
export async function setUpTwoFactor(ctx: Context, userID: number) {
  if (!(await hasKeyAttributes(ctx, userID))) throw plainError(404);
  const email = await emailOf(ctx.db, userID);
  const secretCode = base32Encode(await randomBytes(20));
  const sealed = await encryptBoxB64(new TextEncoder().encode(secretCode), ctx.secrets.totpEncryptionKey);
  const now = ctx.clock.nowMicros();
  await twoFactorDb.insertPendingSecret(
    ctx.db,
    userID,
    { encrypted_secret: sealed.encryptedData, secret_nonce: sealed.nonce },
    now,
    now + limits.twoFactorSessionMinutes * MICROS_PER_MINUTE,
  );
  const uri =
    `otpauth://totp/ente:${encodeURIComponent(email)}` +
    `?algorithm=SHA1&digits=6&issuer=ente&period=30&secret=${secretCode}`;
  const png = await QRCode.toBuffer(uri, { type: 'png', width: 200, margin: 1, errorCorrectionLevel: 'M' });
  return { secretCode, qrCode: png.toString('base64') };
}

/** Turns 2FA on with the set-up secret that `code` is right for (else 401). */
export async function enableTwoFactor(
  ctx: Context,
  userID: number,
  body: { code: string; encryptedTwoFactorSecret: string; twoFactorSecretDecryptionNonce: string },
): Promise<void> {
  const now = ctx.clock.nowMicros();
  const pending = await twoFactorDb.pendingSecretsOf(ctx.db, userID, now);
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
    await twoFactorDb.upsertTwoFactor(tx, userID, {
      encrypted_secret: secret.encryptedData,
      secret_nonce: secret.nonce,
      secret_hash: hmacSha256B64(ctx.secrets.recoveryHashKey, secret.secretCode),
      encrypted_two_factor_secret: body.encryptedTwoFactorSecret,
      two_factor_secret_decryption_nonce: body.twoFactorSecretDecryptionNonce,
      created_at: now,
    });
    await setTwoFactorEnabled(tx, userID, true);
    await twoFactorDb.deletePendingSecrets(tx, userID);
  });
}

/** A 2FA session: valid 10 minutes; only its hash is stored. */
export async function createTwoFactorSession(ctx: Context, userID: number): Promise<string> {
  return createLoginStepSession(ctx, 'two_factor_sessions', userID, limits.twoFactorSessionMinutes);
}

/**
 * The second factor of a login: a right, unused code for the session's user gives the login answer; a
 * wrong or used one counts against the session (401), which stops answering after too many (429).
 */
export async function verifyTwoFactor(
  ctx: Context,
  body: { sessionID: string; code: string },
  app: ClientApp,
  client: RequestClient,
) {
  const session = await liveSession(ctx, body.sessionID);
  if (session.wrong_attempts >= limits.maxTwoFactorWrongAttempts) throw plainError(429);
  const userID = Number(session.user_id);
  const stored = await twoFactorDb.enabledSecretOf(ctx.db, userID);
  if (!stored?.is_two_factor_enabled) throw badRequest('two-factor authentication is not enabled');
  const secretCode = await openSecret(ctx, stored.encrypted_secret, stored.secret_nonce);
  const now = ctx.clock.nowMicros();
  const valid = isValidTotp(base32Decode(secretCode), body.code, now / MICROS_PER_SECOND);
  // A code counts once per user: remembering it is the check (replay protection, docs/protocol.md#two-factor).
  const fresh =
    valid && (await twoFactorDb.rememberUsedCode(ctx.db, userID, sha256B64Url(`${userID}:${body.code}`), now));
  if (!fresh) {
    await twoFactorDb.countWrongAttempt(ctx.db, sha256B64Url(body.sessionID));
    throw plainError(401);
  }
  return twoFactorSuccess(ctx, userID, app, client);
}

/** The secret wrapped with the recovery key (TOTP) or the passkey recovery's, for the session's user. */
export async function twoFactorRecoveryOf(
  ctx: Context,
  sessionID: string,
  type: TwoFactorType | undefined,
): Promise<TwoFactorRecoverResponse> {
  if (type === 'passkey') {
    const recovery = await passkeyRecoveryOfLoginSession(ctx, sessionID);
    return { encryptedSecret: recovery.user_secret_cipher, secretDecryptionNonce: recovery.user_secret_nonce };
  }
  const session = await liveSession(ctx, sessionID);
  const row = await twoFactorDb.recoverableSecretOf(ctx.db, session.user_id);
  if (!row) throw plainError(404);
  return {
    encryptedSecret: row.encrypted_two_factor_secret,
    secretDecryptionNonce: row.two_factor_secret_decryption_nonce,
  };
}

/**
 * Signs in with the recovered secret instead of the second factor (403 when it is not the stored one).
 * TOTP is turned off; passkeys stay (museum): the person signs in, and can remove a lost one at /passkeys.
 */
export async function removeTwoFactor(
  ctx: Context,
  body: { sessionID: string; secret: string; twoFactorType?: TwoFactorType | undefined },
  app: ClientApp,
  client: RequestClient,
) {
  if (body.twoFactorType === 'passkey') {
    const recovery = await passkeyRecoveryOfLoginSession(ctx, body.sessionID);
    if (!isPasskeyRecoverySecret(ctx, body.secret, recovery.secret_hash)) throw plainError(403);
    return twoFactorSuccess(ctx, Number(recovery.user_id), app, client);
  }
  const session = await liveSession(ctx, body.sessionID);
  const userID = Number(session.user_id);
  const secretHash = await twoFactorDb.secretHashOf(ctx.db, userID);
  if (secretHash === undefined || !equalStrings(hmacSha256B64(ctx.secrets.recoveryHashKey, body.secret), secretHash)) {
    throw plainError(403);
  }
  await disableTwoFactor(ctx, userID);
  return twoFactorSuccess(ctx, userID, app, client);
}

export async function disableTwoFactor(ctx: Context, userID: number): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    await twoFactorDb.deleteTwoFactor(tx, userID);
    await setTwoFactorEnabled(tx, userID, false);
  });
}

/** The unexpired 2FA session with this ID, or 404 (the web logs out on it). */
async function liveSession(ctx: Context, sessionID: string) {
  const session = await twoFactorDb.liveSession(ctx.db, sha256B64Url(sessionID), ctx.clock.nowMicros());
  if (!session) throw plainError(404);
  return session;
}

async function openSecret(ctx: Context, encryptedData: string, nonce: string): Promise<string> {
  return new TextDecoder().decode(await decryptBoxBytes({ encryptedData, nonce }, ctx.secrets.totpEncryptionKey));
}
