// SRP routes (docs/protocol.md#srp-setup, docs/protocol.md#srp-login): registering a verifier (setup →
// complete, or update for a password change) and logging in with it (attributes → create-session →
// verify-session).
import { createHmac, randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

import { fromB64, isValidSrpPublicValue, randomBytes, toB64 } from '@ente/crypto';
import {
  limits,
  srpAttributesQuerySchema,
  srpCompleteRequestSchema,
  srpCreateSessionRequestSchema,
  srpSetupRequestSchema,
  srpUpdateRequestSchema,
  srpVerifySessionRequestSchema,
  type SrpAttributesResponse,
  type SrpCompleteResponse,
  type SrpCreateSessionResponse,
  type SrpSetupResponse,
} from '@ente/protocol';

import { isUniqueViolation } from '../db/errors.ts';
import { limitAddress } from '../http/client-address.ts';
import { apiError, badRequest, plainError } from '../http/errors.ts';
import { sessionOf } from '../http/token-check.ts';
import { checkKdfStrength, parseInput } from '../http/validation.ts';
import { MICROS_PER_HOUR } from '../lib/clock.ts';
import { verificationSuccess } from '../services/authorization.ts';
import type { Context } from '../services/context.ts';
import { standInEmailMfa, standInSrpAttributes } from '../services/stand-in-attributes.ts';

export function registerSrpRoutes(app: FastifyInstance, ctx: Context): void {
  app.get('/users/srp/attributes', { config: { rateLimit: 'ip' } }, async (request) => {
    const { email } = parseInput(srpAttributesQuerySchema, request.query, 'query');
    // One query whether or not the address has an account, and stand-in attributes for an address
    // without a password: neither the answer nor the work behind it tells whether an account exists.
    const row = await ctx.db
      .selectFrom('users')
      .leftJoin('srp_auth', 'srp_auth.user_id', 'users.user_id')
      .leftJoin('key_attributes', 'key_attributes.user_id', 'users.user_id')
      .select([
        'users.is_email_mfa_enabled',
        'srp_auth.srp_user_id',
        'srp_auth.salt',
        'key_attributes.mem_limit',
        'key_attributes.ops_limit',
        'key_attributes.kek_salt',
      ])
      .where('users.email', '=', email)
      .executeTakeFirst();
    const standIn = standInSrpAttributes(ctx.secrets.standInKey, email, row !== undefined);
    if (!row?.srp_user_id || !row.salt || !row.kek_salt || row.mem_limit === null || row.ops_limit === null) {
      // An account without SRP gets isEmailMFAEnabled: its clients ask for an e-mail code, which the
      // person receives; an unknown address gets it for one address in five, as accounts may.
      return { attributes: standIn } satisfies SrpAttributesResponse;
    }
    return {
      attributes: {
        srpUserID: row.srp_user_id,
        srpSalt: row.salt,
        memLimit: Number(row.mem_limit),
        opsLimit: Number(row.ops_limit),
        kekSalt: row.kek_salt,
        isEmailMFAEnabled: row.is_email_mfa_enabled,
      },
    } satisfies SrpAttributesResponse;
  });

  app.post('/users/srp/setup', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const { userID } = sessionOf(request);
    const body = parseInput(srpSetupRequestSchema, request.body, 'body');
    const srpUserID = body.srpUserID.toLowerCase();
    checkSrpA(body.srpA);
    const owner = await ctx.db
      .selectFrom('srp_auth')
      .select('user_id')
      .where('srp_user_id', '=', srpUserID)
      .executeTakeFirst();
    if (owner && Number(owner.user_id) !== userID) throw badRequest('srpUserID is already in use');
    const { sessionID, srpB } = await createSession(
      ctx,
      limitAddress(request),
      srpUserID,
      body.srpA,
      body.srpVerifier,
      false,
    );
    const setupID = randomUUID();
    await ctx.db
      .insertInto('temp_srp_setup')
      .values({
        id: setupID,
        session_id: sessionID,
        user_id: userID,
        srp_user_id: srpUserID,
        salt: body.srpSalt,
        verifier: body.srpVerifier,
        created_at: ctx.clock.nowMicros(),
      })
      .execute();
    return { setupID, srpB } satisfies SrpSetupResponse;
  });

  app.post('/users/srp/complete', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const { userID } = sessionOf(request);
    const body = parseInput(srpCompleteRequestSchema, request.body, 'body');
    const existing = await ctx.db
      .selectFrom('srp_auth')
      .select('user_id')
      .where('user_id', '=', userID)
      .executeTakeFirst();
    if (existing) throw badRequest('SRP setup already complete');
    const setup = await setupOf(ctx, body.setupID, userID);
    const srpM2 = await verifyProof(ctx, setup.session_id, setup.srp_user_id, body.srpM1, setup.verifier);
    const now = ctx.clock.nowMicros();
    try {
      await ctx.db
        .insertInto('srp_auth')
        .values(srpAuthRow(userID, setup, now))
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequest('SRP setup already complete');
      throw error;
    }
    await ctx.db.deleteFrom('temp_srp_setup').where('id', '=', body.setupID).execute();
    return { setupID: body.setupID, srpM2 } satisfies SrpCompleteResponse;
  });

  app.post('/users/srp/update', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const session = sessionOf(request);
    const { userID } = session;
    const body = parseInput(srpUpdateRequestSchema, request.body, 'body');
    const attrs = body.updatedKeyAttr;
    checkKdfStrength(attrs.memLimit, attrs.opsLimit);
    const setup = await setupOf(ctx, body.setupID, userID);
    const srpM2 = await verifyProof(ctx, setup.session_id, setup.srp_user_id, body.srpM1, setup.verifier);
    const now = ctx.clock.nowMicros();
    await ctx.db.transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable('key_attributes')
        .set({
          kek_salt: attrs.kekSalt,
          encrypted_key: attrs.encryptedKey,
          key_decryption_nonce: attrs.keyDecryptionNonce,
          mem_limit: attrs.memLimit,
          ops_limit: attrs.opsLimit,
        })
        .where('user_id', '=', userID)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw plainError(404);
      await tx
        .insertInto('srp_auth')
        .values(srpAuthRow(userID, setup, now))
        .onConflict((conflict) =>
          conflict.column('user_id').doUpdateSet({
            srp_user_id: setup.srp_user_id,
            salt: setup.salt,
            verifier: setup.verifier,
            updated_at: now,
          }),
        )
        .execute();
      await tx.deleteFrom('temp_srp_setup').where('id', '=', body.setupID).execute();
      if (body.logOutOtherDevices !== false) {
        await tx
          .updateTable('tokens')
          .set({ is_deleted: true })
          .where('user_id', '=', userID)
          .where('token_hash', '!=', session.tokenHash)
          .execute();
      }
    });
    if (body.logOutOtherDevices !== false) await ctx.invalidator.publish('tokens', userID);
    return { setupID: body.setupID, srpM2 } satisfies SrpCompleteResponse;
  });

  app.post('/users/srp/create-session', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(srpCreateSessionRequestSchema, request.body, 'body');
    const srpUserID = body.srpUserID.toLowerCase();
    checkSrpA(body.srpA);
    const row = await ctx.db
      .selectFrom('srp_auth')
      .innerJoin('users', 'users.user_id', 'srp_auth.user_id')
      .select(['srp_auth.verifier', 'users.is_email_mfa_enabled'])
      .where('srp_auth.srp_user_id', '=', srpUserID)
      .executeTakeFirst();
    // A stand-in srpUserID (services/stand-in-attributes.ts) whose attributes said e-mail MFA is answered
    // as a real account with e-mail MFA is.
    const emailMfa = row ? row.is_email_mfa_enabled : standInEmailMfa(ctx.secrets.standInKey, srpUserID);
    if (emailMfa) throw apiError(409, 'EMAIL_MFA_ENABLED', 'e-mail MFA is enabled');
    // An unknown srpUserID gets a session that looks real but can never verify (docs/protocol.md#srp-login).
    const verifier = row?.verifier ?? toB64(await randomBytes(512));
    const { sessionID, srpB } = await createSession(
      ctx,
      limitAddress(request),
      srpUserID,
      body.srpA,
      verifier,
      row === undefined,
    );
    return { sessionID, srpB } satisfies SrpCreateSessionResponse;
  });

  app.post('/users/srp/verify-session', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(srpVerifySessionRequestSchema, request.body, 'body');
    const srpUserID = body.srpUserID.toLowerCase();
    const auth = await ctx.db
      .selectFrom('srp_auth')
      .select(['user_id', 'verifier'])
      .where('srp_user_id', '=', srpUserID)
      .executeTakeFirst();
    const srpM2 = await verifyProof(ctx, body.sessionID, srpUserID, body.srpM1, auth?.verifier);
    if (!auth) throw plainError(401);
    const response = await verificationSuccess(ctx, Number(auth.user_id), request.clientApp, request);
    return { ...response, srpM2 };
  });
}

/** A and B must be 512 bytes in 1..N-1; museum answers 500 for the range, we answer 400. */
function checkSrpA(srpA: string): void {
  const bytes = fromB64(srpA);
  if (bytes.length !== 512) throw badRequest('Invalid length for srpA');
  if (!isValidSrpPublicValue(bytes)) throw badRequest('srpA must be between 1 and N-1');
}

/**
 * Stores a new SRP session (real or fake) after the hourly unverified-session check. The check counts
 * the sessions of this srpUserID from this client address only: museum counts them per srpUserID, so
 * anyone who read it from /users/srp/attributes could block the person's password sign-in for an hour
 * with ten calls (docs/decisions.md#limits-that-stop-the-attacker).
 */
async function createSession(
  ctx: Context,
  ip: string,
  srpUserID: string,
  srpA: string,
  verifier: string,
  isFake: boolean,
) {
  const now = ctx.clock.nowMicros();
  const unverified = await ctx.db
    .selectFrom('srp_sessions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('srp_user_id', '=', srpUserID)
    .where('ip', '=', ip)
    .where('is_verified', '=', false)
    .where('created_at', '>', now - MICROS_PER_HOUR)
    .executeTakeFirstOrThrow();
  if (Number(unverified.count) >= limits.maxUnverifiedSrpSessionsPerHour) {
    throw apiError(429, 'TOO_MANY_UNVERIFIED_SESSIONS', '');
  }
  const sessionID = randomUUID();
  const { srpB } = await ctx.srp.createServer(verifier, serverSecretOf(ctx, sessionID));
  await ctx.db
    .insertInto('srp_sessions')
    .values({
      id: sessionID,
      srp_user_id: srpUserID,
      srp_b: srpB,
      srp_a: srpA,
      is_fake: isFake,
      created_at: now,
      ip,
    })
    .execute();
  return { sessionID, srpB };
}

/**
 * The SRP server's private exponent b of a session: HMAC-SHA256 of its ID under a server key, so that it
 * is never stored (with b, A and the verifier, a database reader could answer the proof;
 * docs/data-at-rest.md). Sessions stored before kept b in `server_key`.
 */
function serverSecretOf(ctx: Context, sessionID: string): string {
  return createHmac('sha256', ctx.secrets.srpSessionKey).update(sessionID).digest('base64');
}

async function setupOf(ctx: Context, setupID: string, userID: number) {
  const setup = await ctx.db
    .selectFrom('temp_srp_setup')
    .select(['session_id', 'srp_user_id', 'salt', 'verifier'])
    .where('id', '=', setupID)
    .where('user_id', '=', userID)
    .executeTakeFirst();
  if (!setup) throw apiError(404, 'NOT_FOUND', 'unknown setupID');
  return setup;
}

/**
 * Checks M1 for a session and returns M2. Each try first reserves one of the five attempts with an
 * atomic update, so concurrent guesses cannot exceed the limit; the session is marked verified by a
 * second conditional update, so it can be used only once. `verifier` is undefined for unknown users.
 */
async function verifyProof(
  ctx: Context,
  sessionID: string,
  srpUserID: string,
  srpM1: string,
  verifier: string | undefined,
): Promise<string> {
  const session = await ctx.db
    .selectFrom('srp_sessions')
    .select(['server_key', 'srp_a', 'srp_b', 'is_verified', 'is_fake', 'attempt_count'])
    .where('id', '=', sessionID)
    .where('srp_user_id', '=', srpUserID)
    .executeTakeFirst();
  if (!session) throw plainError(401);
  if (session.is_verified) throw apiError(410, 'SESSION_ALREADY_VERIFIED', 'session was already verified');
  const tooMany = () => apiError(410, 'TOO_MANY_WRONG_ATTEMPTS', 'too many wrong attempts');
  if (session.attempt_count >= limits.maxSrpAttempts) throw tooMany();
  const reserved = await ctx.db
    .updateTable('srp_sessions')
    .set({ attempt_count: sql<number>`attempt_count + 1` })
    .where('id', '=', sessionID)
    .where('attempt_count', '<', limits.maxSrpAttempts)
    .where('is_verified', '=', false)
    .returning('attempt_count')
    .executeTakeFirst();
  if (!reserved) throw tooMany();
  if (session.is_fake || verifier === undefined) throw plainError(401);
  const proof = await ctx.srp.verifyProof({
    verifier,
    serverSecret: session.server_key ?? serverSecretOf(ctx, sessionID),
    srpA: session.srp_a,
    srpB: session.srp_b,
    srpM1,
  });
  if ('invalidA' in proof) throw badRequest(proof.invalidA);
  const { srpM2 } = proof;
  if (srpM2 === null) throw plainError(401);
  const verified = await ctx.db
    .updateTable('srp_sessions')
    .set({ is_verified: true, attempt_count: sql<number>`attempt_count - 1` })
    .where('id', '=', sessionID)
    .where('is_verified', '=', false)
    .returning('id')
    .executeTakeFirst();
  if (!verified) throw apiError(410, 'SESSION_ALREADY_VERIFIED', 'session was already verified');
  return srpM2;
}

/** The srp_auth row that a verified setup (signup or password change) registers for the user. */
function srpAuthRow(userID: number, setup: { srp_user_id: string; salt: string; verifier: string }, now: number) {
  return {
    user_id: userID,
    srp_user_id: setup.srp_user_id,
    salt: setup.salt,
    verifier: setup.verifier,
    created_at: now,
    updated_at: now,
  };
}
