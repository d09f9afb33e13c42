// "Verification success" (docs/protocol.md#verification-success): what a client gets once it proved its
// e-mail (OTT) or its password (SRP). Either a second-factor session to continue with, or a token:
// sealed to the user's public key when key attributes exist, in plain text while signup is still in
// progress.

import type { EmailAuthorizationResponse, KeyAttributesResponse } from '@ente/protocol';

import { loginFactsOf, type LoginFacts } from '../db/users.ts';
import type { ClientApp, RequestClient } from '../http/client-app.ts';
import type { Context } from './context.ts';
import { createPasskeyLoginSession } from './passkeys.ts';
import { issueToken, sealToken } from './tokens.ts';
import { createTwoFactorSession } from './two-factor.ts';
import { keyAttributesInFacts } from './users.ts';

/**
 * `facts` are the account's login facts when the caller has read them already (a password login reads them
 * with its verifier); otherwise they are read here, in one query.
 */
export async function verificationSuccess(
  ctx: Context,
  userID: number,
  app: ClientApp,
  client: RequestClient,
  facts?: LoginFacts,
): Promise<EmailAuthorizationResponse> {
  const empty = { passkeySessionID: '', accountsUrl: '', twoFactorSessionID: '', twoFactorSessionIDV2: '' };
  const user = facts ?? (await requireLoginFacts(ctx, userID));
  if (user.has_passkey) {
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
  const keyAttributes = keyAttributesInFacts(user);
  const token = await issueToken(ctx, userID, app, client);
  if (!keyAttributes) return { id: userID, ...empty, token };
  if (!user.is_email_mfa_enabled) await notifyLogin(ctx, user.email, client);
  return { id: userID, ...empty, keyAttributes, encryptedToken: await sealToken(token, keyAttributes.publicKey) };
}

/** The answer of a passed second factor: always key attributes and a sealed token (docs/protocol.md#two-factor). */
export async function twoFactorSuccess(ctx: Context, userID: number, app: ClientApp, client: RequestClient) {
  const user = await requireLoginFacts(ctx, userID);
  const keyAttributes = keyAttributesInFacts(user) as KeyAttributesResponse;
  const token = await issueToken(ctx, userID, app, client);
  if (!user.is_email_mfa_enabled) await notifyLogin(ctx, user.email, client);
  return { id: userID, keyAttributes, encryptedToken: await sealToken(token, keyAttributes.publicKey) };
}

/** The login facts of a user who must exist (the caller just proved something of this account). */
async function requireLoginFacts(ctx: Context, userID: number): Promise<LoginFacts> {
  const facts = await loginFactsOf(ctx.db, { userID });
  if (!facts) throw new Error(`user ${userID} has no row`);
  return facts;
}

/**
 * The e-mail museum sends after each new login token (docs/protocol.md#auth-tokens), unless e-mail MFA is on (that
 * user just got a code by mail). A failure to send does not fail the login.
 */
async function notifyLogin(ctx: Context, email: string, client: RequestClient): Promise<void> {
  try {
    await ctx.mailer.send({
      to: email,
      subject: 'New login to your account',
      text:
        `Your account was just signed in to from ${client.ip} (${client.userAgent ?? 'unknown device'}).\n\n` +
        'If this was not you, change your password and end that session from your account settings.',
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'could not send the login notification');
  }
}
