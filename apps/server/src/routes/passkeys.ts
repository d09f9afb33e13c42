// Passkey routes (docs/protocol.md#passkeys): the management token, the five management routes the accounts
// app calls with it (list, rename, delete, registration begin/finish), the login-time ceremony
// (begin/finish/get-token) and passkey recovery set-up. WebAuthn itself is @simplewebauthn/server; the wire
// shapes are museum's. Where museum answers 500 or accepts too much, these routes answer a 4xx
// (docs/decisions.md#passkeys-server).
import { randomUUID } from 'node:crypto';

import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';

import {
  assertionCredentialSchema,
  beginPasskeyLoginRequestSchema,
  configurePasskeyRecoveryRequestSchema,
  finishPasskeyLoginQuerySchema,
  finishRegistrationQuerySchema,
  limits,
  passkeyIDParamsSchema,
  passkeyTokenQuerySchema,
  registrationCredentialSchema,
  renamePasskeyQuerySchema,
  type AccountsTokenResponse,
  type ListPasskeysResponse,
  type RecoveryStatusResponse,
} from '@ente/protocol';

import { apiError, badRequest, plainError } from '../http/errors.ts';
import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import { MICROS_PER_MINUTE, MICROS_PER_SECOND } from '../lib/clock.ts';
import { hmacSha256B64, sha256B64Url } from '../lib/hashing.ts';
import { twoFactorSuccess } from '../services/authorization.ts';
import type { Context } from '../services/context.ts';
import { accountsTokenUser, issueAccountsToken } from '../services/passkeys.ts';

/** Museum's order of algorithms: ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA. */
const algorithms = [-7, -35, -36, -257, -258, -259, -37, -38, -39, -8];

export function registerPasskeyRoutes(app: FastifyInstance, ctx: Context): void {
  const rpID = ctx.config.WEBAUTHN_RP_ID;
  const origins = ctx.config.WEBAUTHN_RP_ORIGINS;
  const accountsUrl = ctx.config.ACCOUNTS_URL.replace(/\/+$/, '');

  app.get('/users/accounts-token', { config: { auth: true, rateLimit: 'user' } }, (request) => {
    const { userID, tokenHash } = sessionOf(request);
    return { accountsToken: issueAccountsToken(ctx, userID, tokenHash), accountsUrl } satisfies AccountsTokenResponse;
  });

  app.get('/passkeys', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, request);
    const rows = await livePasskeys(ctx, userID);
    const passkeys = rows.map((row) => ({
      id: row.id,
      userID,
      friendlyName: row.friendly_name,
      createdAt: Number(row.created_at),
      // Ours, not museum's: when it last signed in, once it has.
      ...(row.last_used_at !== null && { lastUsedAt: Number(row.last_used_at) }),
    }));
    // museum answers null rather than [] when there are none.
    return { accountsUrl, passkeys: passkeys.length ? passkeys : null } satisfies ListPasskeysResponse;
  });

  app.patch('/passkeys/:passkeyID', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, request);
    const { passkeyID } = parseInput(passkeyIDParamsSchema, request.params, 'path');
    const { friendlyName } = parseInput(renamePasskeyQuerySchema, request.query, 'query');
    const updated = await ctx.db
      .updateTable('passkeys')
      .set({ friendly_name: friendlyName })
      .where('id', '=', passkeyID)
      .where('user_id', '=', userID)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw plainError(404);
    return {};
  });

  app.delete('/passkeys/:passkeyID', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, request);
    const { passkeyID } = parseInput(passkeyIDParamsSchema, request.params, 'path');
    const deleted = await ctx.db
      .updateTable('passkeys')
      .set({ deleted_at: ctx.clock.nowMicros() })
      .where('id', '=', passkeyID)
      .where('user_id', '=', userID)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (deleted.numUpdatedRows === 0n) throw plainError(404);
    return {};
  });

  app.post('/passkeys/registration/begin', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, request);
    const existing = await livePasskeys(ctx, userID);
    if (existing.length >= limits.maxPasskeys)
      throw apiError(409, 'MAX_PASSKEYS_REACHED', 'Max passkeys limit reached');
    const user = await ctx.db
      .selectFrom('users')
      .select('email')
      .where('user_id', '=', userID)
      .executeTakeFirstOrThrow();
    const options = await generateRegistrationOptions({
      rpName: 'Ente',
      rpID,
      userName: user.email,
      userDisplayName: user.email,
      userID: userHandle(userID),
      timeout: limits.passkeyRegistrationCeremonySeconds * 1000,
      attestationType: 'none',
      // An authenticator that already holds one of this account's passkeys is refused by the browser.
      excludeCredentials: existing.map((row) => ({
        id: row.credential_id,
        transports: transportList(row.transports),
      })),
      authenticatorSelection: { requireResidentKey: false, userVerification: 'preferred' },
      supportedAlgorithmIDs: algorithms,
    });
    const sessionID = await startCeremony(ctx, userID, 'registration', options.challenge, null);
    return { options: { publicKey: options }, sessionID };
  });

  app.post('/passkeys/registration/finish', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, request);
    const query = parseInput(finishRegistrationQuerySchema, request.query, 'query');
    const body = parseInput(registrationCredentialSchema, request.body, 'body');
    const ceremony = await takeCeremony(ctx, query.sessionID, 'registration', userID);
    if ((await livePasskeys(ctx, userID)).length >= limits.maxPasskeys) {
      throw apiError(409, 'MAX_PASSKEYS_REACHED', 'Max passkeys limit reached');
    }
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: {
          id: unpadded(body.id),
          rawId: unpadded(body.id),
          type: 'public-key',
          response: {
            attestationObject: unpadded(body.response.attestationObject),
            clientDataJSON: unpadded(body.response.clientDataJSON),
            transports: body.response.transports,
          },
          clientExtensionResults: {},
        },
        expectedChallenge: ceremony.challenge,
        expectedOrigin: origins,
        expectedRPID: rpID,
        requireUserVerification: false,
        supportedAlgorithmIDs: algorithms,
      });
    } catch (error) {
      throw badRequest(`Error parsing attestation response: ${messageOf(error)}`);
    }
    if (!verified.verified) throw badRequest('Error parsing attestation response: not verified');
    const { credential } = verified.registrationInfo;
    const now = ctx.clock.nowMicros();
    const passkeyID = randomUUID();
    const inserted = await ctx.db.transaction().execute(async (tx) => {
      const taken = await tx
        .selectFrom('passkey_credentials')
        .select('passkey_id')
        .where('credential_id', '=', credential.id)
        .executeTakeFirst();
      if (taken) return false;
      await tx
        .insertInto('passkeys')
        .values({ id: passkeyID, user_id: userID, friendly_name: query.friendlyName, created_at: now })
        .execute();
      await tx
        .insertInto('passkey_credentials')
        .values({
          passkey_id: passkeyID,
          credential_id: credential.id,
          public_key: Buffer.from(credential.publicKey).toString('base64url'),
          sign_count: credential.counter,
          transports: (body.response.transports ?? []).join(','),
          created_at: now,
        })
        .execute();
      return true;
    });
    if (!inserted) throw badRequest('this credential is already registered');
    return {};
  });

  app.post('/users/two-factor/passkeys/begin', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(beginPasskeyLoginRequestSchema, request.body, 'body');
    const session = await liveLoginSession(ctx, body.sessionID);
    if (session.verified_at !== null) throw apiError(409, 'SESSION_ALREADY_CLAIMED', 'Session is already claimed');
    const userID = Number(session.user_id);
    const credentials = await livePasskeys(ctx, userID);
    if (credentials.length === 0) throw badRequest('No passkey found for user');
    const options = await generateAuthenticationOptions({
      rpID,
      allowCredentials: credentials.map((row) => ({
        id: row.credential_id,
        transports: transportList(row.transports),
      })),
      userVerification: 'preferred',
      timeout: limits.passkeyLoginCeremonySeconds * 1000,
    });
    const ceremonySessionID = await startCeremony(
      ctx,
      userID,
      'login',
      options.challenge,
      sha256B64Url(body.sessionID),
    );
    return { options: { publicKey: options }, ceremonySessionID };
  });

  app.post('/users/two-factor/passkeys/finish', { config: { rateLimit: 'ip' } }, async (request) => {
    const query = parseInput(finishPasskeyLoginQuerySchema, request.query, 'query');
    const body = parseInput(assertionCredentialSchema, request.body, 'body');
    const session = await liveLoginSession(ctx, query.sessionID);
    const userID = Number(session.user_id);
    const ceremony = await takeCeremony(ctx, query.ceremonySessionID, 'login', userID);
    if (ceremony.login_session_hash !== sha256B64Url(query.sessionID)) throw plainError(404);
    if (session.verified_at !== null) throw apiError(409, 'SESSION_ALREADY_CLAIMED', 'Session is already claimed');
    const invalid = () => apiError(401, 'BAD_REQUEST', 'Invalid signature');
    const id = unpadded(body.id);
    const credential = (await livePasskeys(ctx, userID)).find((row) => row.credential_id === id);
    if (!credential) throw invalid();
    const handle = body.response.userHandle;
    if (handle && unpadded(handle) !== Buffer.from(userHandle(userID)).toString('base64url')) throw invalid();
    const verify = (storedCount: number) =>
      verifyAuthenticationResponse({
        response: {
          id,
          rawId: id,
          type: 'public-key',
          response: {
            authenticatorData: unpadded(body.response.authenticatorData),
            clientDataJSON: unpadded(body.response.clientDataJSON),
            signature: unpadded(body.response.signature),
            ...(handle ? { userHandle: unpadded(handle) } : {}),
          },
          clientExtensionResults: {},
        },
        expectedChallenge: ceremony.challenge,
        expectedOrigin: origins,
        expectedRPID: rpID,
        credential: {
          id: credential.credential_id,
          publicKey: new Uint8Array(Buffer.from(credential.public_key, 'base64url')),
          counter: storedCount,
          transports: transportList(credential.transports),
        },
        requireUserVerification: false,
      });
    const storedCount = Number(credential.sign_count);
    let verified;
    try {
      verified = await verify(storedCount);
    } catch (error) {
      request.log.info({ reason: messageOf(error) }, 'passkey assertion refused');
      // The sign count is checked before the signature: only an assertion that passes every other check
      // (checked again without the stored count) is said to come from a cloned or restored authenticator.
      if (storedCount > 0 && (await verify(0).catch(() => undefined))?.verified) {
        request.log.warn({ passkeyID: credential.passkey_id }, 'passkey sign count did not increase');
        throw apiError(
          401,
          'PASSKEY_SIGN_COUNT_NOT_INCREASED',
          'the sign count did not increase: the authenticator may be a copy or restored from a backup',
        );
      }
      throw invalid();
    }
    if (!verified.verified) throw invalid();
    await ctx.db
      .updateTable('passkey_credentials')
      .set({ sign_count: verified.authenticationInfo.newCounter, last_used_at: ctx.clock.nowMicros() })
      .where('passkey_id', '=', credential.passkey_id)
      .execute();
    const answer = await twoFactorSuccess(ctx, userID, request.clientApp, request);
    const claimed = await ctx.db
      .updateTable('passkey_login_sessions')
      .set({ verified_at: ctx.clock.nowMicros(), token_data: JSON.stringify(answer) })
      .where('session_hash', '=', sha256B64Url(query.sessionID))
      .where('verified_at', 'is', null)
      .executeTakeFirst();
    if (claimed.numUpdatedRows === 0n) throw apiError(409, 'SESSION_ALREADY_CLAIMED', 'Session is already claimed');
    return answer;
  });

  app.get('/users/two-factor/passkeys/get-token', { config: { rateLimit: 'ip' } }, async (request) => {
    const { sessionID } = parseInput(passkeyTokenQuerySchema, request.query, 'query');
    const session = await liveLoginSession(ctx, sessionID);
    if (session.verified_at === null || session.token_data === null) {
      throw apiError(400, 'SESSION_NOT_VERIFIED', 'Session is not verified yet');
    }
    const tooLate = ctx.clock.nowMicros() - Number(session.verified_at) > 2 * MICROS_PER_MINUTE;
    const fetched = await ctx.db
      .updateTable('passkey_login_sessions')
      .set((eb) => ({ token_fetch_count: eb('token_fetch_count', '+', 1) }))
      .where('session_hash', '=', sha256B64Url(sessionID))
      .where('token_fetch_count', '<', 2)
      .executeTakeFirst();
    if (tooLate || fetched.numUpdatedRows === 0n) throw apiError(410, 'INVALID_SESSION', 'Session is no longer valid');
    return JSON.parse(session.token_data) as unknown;
  });

  app.get('/users/two-factor/recovery-status', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const row = await ctx.db
      .selectFrom('passkey_recovery')
      .select('user_id')
      .where('user_id', '=', sessionOf(request).userID)
      .executeTakeFirst();
    return { allowAdminReset: true, isPasskeyRecoveryEnabled: row !== undefined } satisfies RecoveryStatusResponse;
  });

  app.post(
    '/users/two-factor/passkeys/configure-recovery',
    { config: { auth: true, rateLimit: 'user' } },
    async (request) => {
      const body = parseInput(configurePasskeyRecoveryRequestSchema, request.body, 'body');
      // Write-once, as museum: a second call changes nothing (the recovery key could not open a new one
      // that another session set meanwhile).
      await ctx.db
        .insertInto('passkey_recovery')
        .values({
          user_id: sessionOf(request).userID,
          secret_hash: hmacSha256B64(ctx.secrets.recoveryHashKey, body.secret),
          user_secret_cipher: body.userSecretCipher,
          user_secret_nonce: body.userSecretNonce,
          created_at: ctx.clock.nowMicros(),
        })
        .onConflict((conflict) => conflict.column('user_id').doNothing())
        .execute();
      return {};
    },
  );
}

/** The user handle WebAuthn knows the account by: its ID as 8 bytes, big-endian (museum's). */
function userHandle(userID: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(userID));
  return bytes;
}

async function livePasskeys(ctx: Context, userID: number) {
  return ctx.db
    .selectFrom('passkeys')
    .innerJoin('passkey_credentials', 'passkey_credentials.passkey_id', 'passkeys.id')
    .select([
      'passkeys.id',
      'passkeys.friendly_name',
      'passkeys.created_at',
      'passkey_credentials.passkey_id',
      'passkey_credentials.credential_id',
      'passkey_credentials.public_key',
      'passkey_credentials.sign_count',
      'passkey_credentials.transports',
      'passkey_credentials.last_used_at',
    ])
    .where('passkeys.user_id', '=', userID)
    .where('passkeys.deleted_at', 'is', null)
    .orderBy('passkeys.created_at')
    .execute();
}

async function startCeremony(
  ctx: Context,
  userID: number,
  kind: 'registration' | 'login',
  challenge: string,
  loginSessionHash: string | null,
): Promise<string> {
  const id = randomUUID();
  const seconds = kind === 'login' ? limits.passkeyLoginCeremonySeconds : limits.passkeyRegistrationCeremonySeconds;
  await ctx.db
    .insertInto('webauthn_sessions')
    .values({
      id,
      user_id: userID,
      kind,
      challenge,
      login_session_hash: loginSessionHash,
      expires_at: ctx.clock.nowMicros() + seconds * MICROS_PER_SECOND,
    })
    .execute();
  return id;
}

/**
 * Consumes a ceremony session: it works once, for its own user and kind (else 404, museum answers 500 for
 * another user's), and not after its timeout (410).
 */
async function takeCeremony(ctx: Context, id: string, kind: 'registration' | 'login', userID: number) {
  const row = await ctx.db
    .deleteFrom('webauthn_sessions')
    .where('id', '=', id)
    .where('kind', '=', kind)
    .where('user_id', '=', userID)
    .returning(['challenge', 'login_session_hash', 'expires_at'])
    .executeTakeFirst();
  if (!row) throw plainError(404);
  if (Number(row.expires_at) < ctx.clock.nowMicros()) throw apiError(410, 'SESSION_EXPIRED', 'Session expired');
  return row;
}

/** The passkey login session with this ID, unexpired (museum does not check the expiry), or 404. */
async function liveLoginSession(ctx: Context, sessionID: string) {
  const session = await ctx.db
    .selectFrom('passkey_login_sessions')
    .select(['user_id', 'verified_at', 'token_data'])
    .where('session_hash', '=', sha256B64Url(sessionID))
    .where('expires_at', '>', ctx.clock.nowMicros())
    .executeTakeFirst();
  if (!session) throw plainError(404);
  return session;
}

function transportList(stored: string): AuthenticatorTransport[] {
  return stored.split(',').filter((transport) => transport !== '') as AuthenticatorTransport[];
}

/** Base64url without its padding (museum accepts both). */
function unpadded(value: string): string {
  return value.replace(/=+$/, '');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown';
}
