// The SRP rules (docs/protocol.md#srp-setup, docs/protocol.md#srp-login): registering a verifier (setup →
// complete, or update for a password change) and logging in with it (attributes → create-session →
// verify-session). The queries are db/srp.ts's, the 4096-bit steps srp/'s worker pool's.
// See docs/architecture.md#the-server for where each login query lives.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';

import { fromB64, isValidSrpPublicValue, toB64 } from '@ente/crypto';
import {
  limits,
  type SrpAttributesResponse,
  type SrpCompleteRequest,
  type SrpCreateSessionRequest,
  type SrpSetupRequest,
  type SrpUpdateRequest,
  type SrpVerifySessionRequest,
} from '@ente/protocol';

import { isUniqueViolation } from '../db/errors.ts';
import * as srpDb from '../db/srp.ts';
import { deleteOtherTokens } from '../db/tokens.ts';
import { updatePasswordKeyAttributes } from '../db/users.ts';
import type { ClientApp, RequestClient } from '../http/client-app.ts';
import { apiError, badRequest, plainError } from '../http/errors.ts';
import { MICROS_PER_HOUR } from '../lib/clock.ts';
import { verificationSuccess } from './authorization.ts';
import type { Context } from './context.ts';
import { standInEmailMfa, standInSrpAttributes } from './stand-in-attributes.ts';
import type { AuthenticatedSession } from './tokens.ts';

/**
 * The SRP attributes of an address. One query whether or not the address has an account, and stand-in
 * attributes for an address without a password: neither the answer nor the work behind it tells whether
 * an account exists.
 */
export async function srpAttributesOf(ctx: Context, email: string): Promise<SrpAttributesResponse['attributes']> {
  const row = await srpDb.srpAttributesByEmail(ctx.db, email);
  const standIn = standInSrpAttributes(ctx.secrets.standInKey, email, row !== undefined);
  if (!row?.srp_user_id || !row.salt || !row.kek_salt || row.mem_limit === null || row.ops_limit === null) {
    // An account without SRP gets isEmailMFAEnabled: its clients ask for an e-mail code, which the
    // person receives; an unknown address gets it for one address in five, as accounts may.
    return standIn;
  }
  return {
    srpUserID: row.srp_user_id,
    srpSalt: row.salt,
    memLimit: Number(row.mem_limit),
    opsLimit: Number(row.ops_limit),
    kekSalt: row.kek_salt,
    isEmailMFAEnabled: row.is_email_mfa_enabled,
  };
}

/** Starts registering a verifier for the signed-in user: a setup awaiting its proof, and B. */
export async function beginSrpSetup(ctx: Context, userID: number, ip: string, body: SrpSetupRequest) {
  const srpUserID = body.srpUserID.toLowerCase();
  checkSrpA(body.srpA);
  const owner = await srpDb.ownerOfSrpUserID(ctx.db, srpUserID);
  if (owner && Number(owner.user_id) !== userID) throw badRequest('srpUserID is already in use');
  const now = ctx.clock.nowMicros();
  const unverified = await srpDb.countUnverifiedSessions(ctx.db, srpUserID, ip, now - MICROS_PER_HOUR);
  const session = { ip, srpUserID, srpA: body.srpA, verifier: body.srpVerifier, isFake: false, now };
  const { sessionID, srpB } = await createSession(ctx, session, unverified);
  const setupID = randomUUID();
  await srpDb.insertSetup(ctx.db, {
    id: setupID,
    sessionID,
    userID,
    srp_user_id: srpUserID,
    salt: body.srpSalt,
    verifier: body.srpVerifier,
    now: ctx.clock.nowMicros(),
  });
  return { setupID, srpB };
}

/** Registers the user's first verifier once its setup's proof checks out; returns M2. */
export async function completeSrpSetup(ctx: Context, userID: number, body: SrpCompleteRequest): Promise<string> {
  if (await srpDb.hasSrpAuth(ctx.db, userID)) throw badRequest('SRP setup already complete');
  const setup = await setupOf(ctx, body.setupID, userID);
  const srpM2 = await verifyProof(ctx, setup.session_id, setup.srp_user_id, body.srpM1, setup.verifier);
  try {
    await srpDb.insertSrpAuth(ctx.db, userID, setup, ctx.clock.nowMicros());
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest('SRP setup already complete');
    throw error;
  }
  await srpDb.deleteSetup(ctx.db, body.setupID);
  return srpM2;
}

/**
 * A password change: the new verifier and the re-wrapped master key together, once the setup's proof checks
 * out; other sessions end unless the client asks to keep them. Returns M2. The caller has checked the KDF.
 */
export async function updateSrpPassword(
  ctx: Context,
  session: AuthenticatedSession,
  body: SrpUpdateRequest,
): Promise<string> {
  const { userID } = session;
  const setup = await setupOf(ctx, body.setupID, userID);
  const srpM2 = await verifyProof(ctx, setup.session_id, setup.srp_user_id, body.srpM1, setup.verifier);
  const now = ctx.clock.nowMicros();
  await ctx.db.transaction().execute(async (tx) => {
    if (!(await updatePasswordKeyAttributes(tx, userID, body.updatedKeyAttr))) throw plainError(404);
    await srpDb.upsertSrpAuth(tx, userID, setup, now);
    await srpDb.deleteSetup(tx, body.setupID);
    if (body.logOutOtherDevices !== false) await deleteOtherTokens(tx, userID, session.tokenHash);
  });
  if (body.logOutOtherDevices !== false) await ctx.invalidator.publish('tokens', userID);
  return srpM2;
}

/** Login step 1: a session and B, real or (for an unknown srpUserID) one that can never verify. */
export async function createSrpLoginSession(ctx: Context, ip: string, body: SrpCreateSessionRequest) {
  const srpUserID = body.srpUserID.toLowerCase();
  checkSrpA(body.srpA);
  const now = ctx.clock.nowMicros();
  const start = await srpDb.loginStartOf(ctx.db, srpUserID, ip, now - MICROS_PER_HOUR);
  const known = start.verifier !== null;
  // A stand-in srpUserID (services/stand-in-attributes.ts) whose attributes said e-mail MFA is answered
  // as a real account with e-mail MFA is.
  const emailMfa = known ? start.isEmailMfaEnabled : standInEmailMfa(ctx.secrets.standInKey, srpUserID);
  if (emailMfa) throw apiError(409, 'EMAIL_MFA_ENABLED', 'e-mail MFA is enabled');
  // An unknown srpUserID gets a session that looks real but can never verify (docs/protocol.md#srp-login).
  const verifier = start.verifier ?? toB64(randomBytes(512));
  return createSession(ctx, { ip, srpUserID, srpA: body.srpA, verifier, isFake: !known, now }, start.unverified);
}

/** Login step 2: checks M1, then verification success with M2. */
export async function verifySrpLoginSession(
  ctx: Context,
  body: SrpVerifySessionRequest,
  app: ClientApp,
  client: RequestClient,
) {
  const srpUserID = body.srpUserID.toLowerCase();
  // The attempt, the verifier and everything the answer needs in one statement: a login reads the account once.
  const { attempt, facts } = await srpDb.reserveLoginAttempt(ctx.db, body.sessionID, srpUserID, limits.maxSrpAttempts);
  const verifier = facts?.verifier ?? undefined;
  const srpM2 = await checkReservedProof(ctx, body.sessionID, srpUserID, body.srpM1, verifier, attempt);
  if (!facts) throw plainError(401);
  const response = await verificationSuccess(ctx, Number(facts.account_id), app, client, facts);
  return { ...response, srpM2 };
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
  session: { ip: string; srpUserID: string; srpA: string; verifier: string; isFake: boolean; now: number },
  unverified: number,
) {
  if (unverified >= limits.maxUnverifiedSrpSessionsPerHour) {
    throw apiError(429, 'TOO_MANY_UNVERIFIED_SESSIONS', '');
  }
  const id = randomUUID();
  const { srpB } = await ctx.srp.createServer(session.verifier, serverSecretOf(ctx, id));
  await srpDb.insertSession(ctx.db, { ...session, id, srpB });
  return { sessionID: id, srpB };
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
  const setup = await srpDb.setupOf(ctx.db, setupID, userID);
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
  const attempt = await srpDb.reserveAttempt(ctx.db, sessionID, srpUserID, limits.maxSrpAttempts);
  return checkReservedProof(ctx, sessionID, srpUserID, srpM1, verifier, attempt);
}

/** verifyProof once its attempt is reserved (or not: `attempt` undefined). */
async function checkReservedProof(
  ctx: Context,
  sessionID: string,
  srpUserID: string,
  srpM1: string,
  verifier: string | undefined,
  attempt: Awaited<ReturnType<typeof srpDb.reserveAttempt>>,
): Promise<string> {
  if (!attempt) {
    // No attempt reserved: say why, as the contract orders the answers.
    const state = await srpDb.sessionOf(ctx.db, sessionID, srpUserID);
    if (!state) throw plainError(401);
    if (state.is_verified) throw apiError(410, 'SESSION_ALREADY_VERIFIED', 'session was already verified');
    throw apiError(410, 'TOO_MANY_WRONG_ATTEMPTS', 'too many wrong attempts');
  }
  if (attempt.is_fake || verifier === undefined) throw plainError(401);
  const proof = await ctx.srp.verifyProof({
    verifier,
    serverSecret: attempt.server_key ?? serverSecretOf(ctx, sessionID),
    srpA: attempt.srp_a,
    srpB: attempt.srp_b,
    srpM1,
  });
  if ('invalidA' in proof) throw badRequest(proof.invalidA);
  const { srpM2 } = proof;
  if (srpM2 === null) throw plainError(401);
  if (!(await srpDb.markSessionVerified(ctx.db, sessionID))) {
    throw apiError(410, 'SESSION_ALREADY_VERIFIED', 'session was already verified');
  }
  return srpM2;
}
