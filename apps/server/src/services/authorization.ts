// "Verification success" (docs/protocol.md#verification-success): what a client gets once it proved its
// e-mail (OTT) or its password (SRP). Either a second-factor session to continue with, or a token:
// sealed to the user's public key when key attributes exist, in plain text while signup is still in
// progress.
import type { FastifyRequest } from 'fastify';

import type { EmailAuthorizationResponse, KeyAttributesResponse } from '@ente/protocol';

import { loginFlagsOf } from '../db/users.ts';
import type { ClientApp } from '../http/client-app.ts';
import type { Context } from './context.ts';
import { createPasskeyLoginSession, hasLivePasskey } from './passkeys.ts';
import { issueToken, sealToken } from './tokens.ts';
import { createTwoFactorSession } from './two-factor.ts';
import { keyAttributesOf } from './users.ts';

export async function verificationSuccess(
  ctx: Context,
  userID: number,
  app: ClientApp,
  request: FastifyRequest,
): Promise<EmailAuthorizationResponse> {
  const empty = { passkeySessionID: '', accountsUrl: '', twoFactorSessionID: '', twoFactorSessionIDV2: '' };
  const user = await loginFlagsOf(ctx.db, userID);
  if (await hasLivePasskey(ctx, userID)) {
    // With TOTP on as well, museum answers its session as twoFactorSessionIDV2 (clients offer both).
    return {
      id: userID,
      ...empty,
      passkeySessionID: await createPasskeyLoginSession(ctx, userID),
      accountsUrl: ctx.config.ACCOUNTS_URL.replace(/\/+$/, ''),
      ...(user.is_two_factor_enabled && { twoFactorSessionIDV2: await createTwoFactorSession(ctx, userID) }),
    };
  }
  if (user.is_two_factor_enabled) {
    return { id: userID, ...empty, twoFactorSessionID: await createTwoFactorSession(ctx, userID) };
  }
  const keyAttributes = await keyAttributesOf(ctx, userID);
  const token = await issueToken(ctx, userID, app, request);
  if (!keyAttributes) return { id: userID, ...empty, token };
  if (!user.is_email_mfa_enabled) await notifyLogin(ctx, user.email, request);
  return { id: userID, ...empty, keyAttributes, encryptedToken: await sealToken(token, keyAttributes.publicKey) };
}

/** The answer of a passed second factor: always key attributes and a sealed token (docs/protocol.md#two-factor). */
export async function twoFactorSuccess(ctx: Context, userID: number, app: ClientApp, request: FastifyRequest) {
  const keyAttributes = (await keyAttributesOf(ctx, userID)) as KeyAttributesResponse;
  const token = await issueToken(ctx, userID, app, request);
  const user = await loginFlagsOf(ctx.db, userID);
  if (!user.is_email_mfa_enabled) await notifyLogin(ctx, user.email, request);
  return { id: userID, keyAttributes, encryptedToken: await sealToken(token, keyAttributes.publicKey) };
}

/**
 * The e-mail museum sends after each new login token (docs/protocol.md#auth-tokens), unless e-mail MFA is on (that
 * user just got a code by mail). A failure to send does not fail the login.
 */
async function notifyLogin(ctx: Context, email: string, request: FastifyRequest): Promise<void> {
  try {
    await ctx.mailer.send({
      to: email,
      subject: 'New login to your account',
      text:
        `Your account was just signed in to from ${request.ip} (${request.headers['user-agent'] ?? 'unknown device'}).\n\n` +
        'If this was not you, change your password and end that session from your account settings.',
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'could not send the login notification');
  }
}
