// The passkey rules (docs/protocol.md#passkeys): the management token of the accounts app, managing
// passkeys with it (at most limits.maxPasskeys live ones, counted in the transaction that inserts), the
// login-time ceremony and its session, and passkey recovery. The queries are db/passkeys.ts's, WebAuthn
// is adapters/webauthn.ts's. Where museum answers 500 or accepts too much, these answer a 4xx
// (docs/decisions.md#passkeys-server).
import { randomUUID } from 'node:crypto';

import {
  limits,
  middlewareErrorTexts,
  type AssertionCredential,
  type ConfigurePasskeyRecoveryRequest,
  type RegistrationCredential,
} from '@ente/protocol';

import {
  assertedCredentialID,
  authenticationOptions,
  isUserHandleOf,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
  type RelyingParty,
} from '../adapters/webauthn.ts';
import * as passkeysDb from '../db/passkeys.ts';
import { emailOf, lockUser } from '../db/users.ts';
import type { ClientApp, RequestClient } from '../http/client-app.ts';
import { apiError, badRequest, middlewareError, plainError } from '../http/errors.ts';
import { MICROS_PER_MINUTE, MICROS_PER_SECOND } from '../lib/clock.ts';
import { equalStrings, hmacSha256B64, sha256B64Url } from '../lib/hashing.ts';
import { twoFactorSuccess } from './authorization.ts';
import type { Context } from './context.ts';
import { createLoginStepSession } from './login-step-sessions.ts';
import { isLiveSession } from './tokens.ts';

/** Whether the user has a live passkey (then a login asks for it). */
/** A passkey login session: valid 10 minutes; only its hash is stored. */
export async function createPasskeyLoginSession(ctx: Context, userID: number): Promise<string> {
  return createLoginStepSession(ctx, 'passkey_login_sessions', userID, limits.passkeyLoginSessionMinutes);
}

/** The user's live passkeys, oldest first. */
export async function listPasskeys(ctx: Context, userID: number) {
  return passkeysDb.livePasskeys(ctx.db, userID);
}

/** Renames one of the user's live passkeys, or 404. */
export async function renamePasskey(ctx: Context, userID: number, passkeyID: string, friendlyName: string) {
  if (!(await passkeysDb.renamePasskey(ctx.db, userID, passkeyID, friendlyName))) throw plainError(404);
}

/** Deletes one of the user's live passkeys, or 404. */
export async function deletePasskey(ctx: Context, userID: number, passkeyID: string) {
  if (!(await passkeysDb.deletePasskey(ctx.db, userID, passkeyID, ctx.clock.nowMicros()))) throw plainError(404);
}

const maxPasskeysReached = () => apiError(409, 'MAX_PASSKEYS_REACHED', 'Max passkeys limit reached');

/** Starts registering a passkey: the browser's options and the ceremony session; 409 at the limit. */
export async function beginRegistration(ctx: Context, userID: number) {
  const existing = await passkeysDb.livePasskeys(ctx.db, userID);
  if (existing.length >= limits.maxPasskeys) throw maxPasskeysReached();
  const email = await emailOf(ctx.db, userID);
  const options = await registrationOptions(
    relyingParty(ctx),
    { id: userID, email },
    existing,
    limits.passkeyRegistrationCeremonySeconds,
  );
  const sessionID = await startCeremony(ctx, userID, 'registration', options.challenge, null);
  return { options: { publicKey: options }, sessionID };
}

/**
 * Registers the passkey of a ceremony. The limit is counted in the transaction that inserts, under a lock
 * on the user's row, so that concurrent registrations cannot pass it together (See: lockUser).
 */
export async function finishRegistration(
  ctx: Context,
  userID: number,
  query: { sessionID: string; friendlyName: string },
  body: RegistrationCredential,
): Promise<void> {
  const ceremony = await takeCeremony(ctx, query.sessionID, 'registration', userID);
  const verified = await verifyRegistration(relyingParty(ctx), body, ceremony.challenge);
  if ('refused' in verified) throw badRequest(`Error parsing attestation response: ${verified.refused}`);
  const { credential } = verified;
  const inserted = await ctx.db.transaction().execute(async (tx) => {
    if (!(await lockUser(tx, userID))) throw plainError(404);
    if ((await passkeysDb.countLivePasskeys(tx, userID)) >= limits.maxPasskeys) throw maxPasskeysReached();
    if (await passkeysDb.isCredentialRegistered(tx, credential.id)) return false;
    const passkey = { id: randomUUID(), userID, friendlyName: query.friendlyName, now: ctx.clock.nowMicros() };
    await passkeysDb.insertPasskey(tx, passkey, credential);
    return true;
  });
  if (!inserted) throw badRequest('this credential is already registered');
}

/** Starts the login ceremony of a passkey login session: the browser's options and the ceremony session. */
export async function beginPasskeyLogin(ctx: Context, sessionID: string) {
  const session = await liveLoginSession(ctx, sessionID);
  if (session.verified_at !== null) throw sessionAlreadyClaimed();
  const userID = Number(session.user_id);
  const credentials = await passkeysDb.livePasskeys(ctx.db, userID);
  if (credentials.length === 0) throw badRequest('No passkey found for user');
  const options = await authenticationOptions(relyingParty(ctx), credentials, limits.passkeyLoginCeremonySeconds);
  const ceremonySessionID = await startCeremony(ctx, userID, 'login', options.challenge, sha256B64Url(sessionID));
  return { options: { publicKey: options }, ceremonySessionID };
}

/**
 * Finishes the login ceremony: checks the assertion, records the new sign count, claims the login session
 * and returns the second factor's answer (which GET …/get-token also hands out).
 */
export async function finishPasskeyLogin(
  ctx: Context,
  query: { sessionID: string; ceremonySessionID: string },
  body: AssertionCredential,
  app: ClientApp,
  client: RequestClient,
) {
  const session = await liveLoginSession(ctx, query.sessionID);
  const userID = Number(session.user_id);
  const ceremony = await takeCeremony(ctx, query.ceremonySessionID, 'login', userID);
  const sessionHash = sha256B64Url(query.sessionID);
  if (ceremony.login_session_hash !== sessionHash) throw plainError(404);
  if (session.verified_at !== null) throw sessionAlreadyClaimed();
  const invalid = () => apiError(401, 'BAD_REQUEST', 'Invalid signature');
  const id = assertedCredentialID(body);
  const credential = (await passkeysDb.livePasskeys(ctx.db, userID)).find((row) => row.credential_id === id);
  if (!credential) throw invalid();
  if (!isUserHandleOf(body, userID)) throw invalid();
  const verified = await verifyAuthentication(relyingParty(ctx), body, ceremony.challenge, credential);
  if ('refused' in verified) {
    ctx.log.info({ reason: verified.refused }, 'passkey assertion refused');
    if (verified.signCountOnly) {
      ctx.log.warn({ passkeyID: credential.passkey_id }, 'passkey sign count did not increase');
      throw apiError(
        401,
        'PASSKEY_SIGN_COUNT_NOT_INCREASED',
        'the sign count did not increase: the authenticator may be a copy or restored from a backup',
      );
    }
    throw invalid();
  }
  await passkeysDb.recordPasskeyUse(ctx.db, credential.passkey_id, verified.newCount, ctx.clock.nowMicros());
  const answer = await twoFactorSuccess(ctx, userID, app, client);
  if (!(await passkeysDb.claimLoginSession(ctx.db, sessionHash, JSON.stringify(answer), ctx.clock.nowMicros()))) {
    throw sessionAlreadyClaimed();
  }
  return answer;
}

/** The answer of a verified passkey login session: twice at most, within 2 minutes of the verification. */
export async function passkeyLoginAnswer(ctx: Context, sessionID: string): Promise<unknown> {
  const session = await liveLoginSession(ctx, sessionID);
  if (session.verified_at === null || session.token_data === null) {
    throw apiError(400, 'SESSION_NOT_VERIFIED', 'Session is not verified yet');
  }
  const tooLate = ctx.clock.nowMicros() - Number(session.verified_at) > 2 * MICROS_PER_MINUTE;
  const fetched = await passkeysDb.countTokenFetch(ctx.db, sha256B64Url(sessionID), 2);
  if (tooLate || !fetched) throw apiError(410, 'INVALID_SESSION', 'Session is no longer valid');
  return JSON.parse(session.token_data) as unknown;
}

export async function isPasskeyRecoveryEnabled(ctx: Context, userID: number): Promise<boolean> {
  return (await passkeysDb.passkeyRecoveryOf(ctx.db, userID)) !== undefined;
}

/**
 * Stores the passkey recovery. Write-once, as museum: a second call changes nothing (the recovery key could
 * not open a new one that another session set meanwhile).
 */
export async function configurePasskeyRecovery(
  ctx: Context,
  userID: number,
  body: ConfigurePasskeyRecoveryRequest,
): Promise<void> {
  await passkeysDb.insertPasskeyRecoveryIfAbsent(ctx.db, {
    userID,
    secretHash: hmacSha256B64(ctx.secrets.recoveryHashKey, body.secret),
    cipher: body.userSecretCipher,
    nonce: body.userSecretNonce,
    now: ctx.clock.nowMicros(),
  });
}

/**
 * The passkey recovery of the user of an unexpired passkey login session: 404 without the session, 400
 * when the account never configured it.
 */
export async function passkeyRecoveryOfLoginSession(ctx: Context, sessionID: string) {
  const session = await liveLoginSession(ctx, sessionID);
  const recovery = await passkeysDb.passkeyRecoveryOf(ctx.db, session.user_id);
  if (!recovery) throw badRequest('Passkey reset is not configured');
  return recovery;
}

/** Whether a recovery secret is the one stored for passkey recovery. */
export function isPasskeyRecoverySecret(ctx: Context, secret: string, secretHash: string): boolean {
  return equalStrings(hmacSha256B64(ctx.secrets.recoveryHashKey, secret), secretHash);
}

function relyingParty(ctx: Context): RelyingParty {
  return { rpID: ctx.config.WEBAUTHN_RP_ID, origins: ctx.config.WEBAUTHN_RP_ORIGINS };
}

const sessionAlreadyClaimed = () => apiError(409, 'SESSION_ALREADY_CLAIMED', 'Session is already claimed');

async function startCeremony(
  ctx: Context,
  userID: number,
  kind: 'registration' | 'login',
  challenge: string,
  loginSessionHash: string | null,
): Promise<string> {
  const id = randomUUID();
  const seconds = kind === 'login' ? limits.passkeyLoginCeremonySeconds : limits.passkeyRegistrationCeremonySeconds;
  const expiresAt = ctx.clock.nowMicros() + seconds * MICROS_PER_SECOND;
  await passkeysDb.insertCeremony(ctx.db, { id, userID, kind, challenge, loginSessionHash, expiresAt });
  return id;
}

/**
 * Consumes a ceremony session: it works once, for its own user and kind (else 404, museum answers 500 for
 * another user's), and not after its timeout (410).
 */
async function takeCeremony(ctx: Context, id: string, kind: 'registration' | 'login', userID: number) {
  const row = await passkeysDb.takeCeremony(ctx.db, id, kind, userID);
  if (!row) throw plainError(404);
  if (Number(row.expires_at) < ctx.clock.nowMicros()) throw apiError(410, 'SESSION_EXPIRED', 'Session expired');
  return row;
}

/** The passkey login session with this ID, unexpired (museum does not check the expiry), or 404. */
async function liveLoginSession(ctx: Context, sessionID: string) {
  const session = await passkeysDb.liveLoginSession(ctx.db, sha256B64Url(sessionID), ctx.clock.nowMicros());
  if (!session) throw plainError(404);
  return session;
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

/** The user of an accounts token (the request's X-Auth-Token, '' when absent), or the token check's 401. */
export async function accountsTokenUser(ctx: Context, token: string): Promise<number> {
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
