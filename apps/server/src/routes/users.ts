// Account routes (docs/protocol.md#e-mail-codes to docs/protocol.md#sessions-and-logout): e-mail codes
// and their verification, key attributes, recovery key, e-mail change, session validity, details,
// e-mail MFA, public keys, and sessions. The rules are services/users.ts's and services/otts.ts's.
import type { FastifyInstance } from 'fastify';

import {
  changeEmailRequestSchema,
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

import { limitAddress } from '../http/client-address.ts';
import { plainError } from '../http/errors.ts';
import { requestClient } from '../http/request-client.ts';
import { sessionOf } from '../http/token-check.ts';
import { checkKdfStrength, parseInput } from '../http/validation.ts';
import { verificationSuccess } from '../services/authorization.ts';
import type { Context } from '../services/context.ts';
import { storageOf, storageQuotaOf } from '../services/files.ts';
import { consumeOtt, sendOtt } from '../services/otts.ts';
import {
  changeEmail,
  endSession,
  findOrCreateUser,
  keyAttributesOf,
  logout,
  publicKeyOf,
  sessionsOf,
  setEmailMfa,
  setKeyAttributes,
  setRecoveryKey,
  userByEmail,
  userDetailsOf,
} from '../services/users.ts';

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
    return verificationSuccess(ctx, userID, request.clientApp, requestClient(request));
  });

  app.put('/users/attributes', { config: { auth: true } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const { keyAttributes } = parseInput(setKeyAttributesRequestSchema, request.body, 'body');
    checkKdfStrength(keyAttributes.memLimit, keyAttributes.opsLimit);
    await setKeyAttributes(ctx, userID, keyAttributes);
    return reply.code(200).send();
  });

  app.put('/users/recovery-key', { config: { auth: true } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const body = parseInput(setRecoveryKeyRequestSchema, request.body, 'body');
    await setRecoveryKey(ctx, userID, body);
    return reply.code(200).send();
  });

  app.post('/users/change-email', { config: { auth: true, rateLimit: 'user' } }, async (request, reply) => {
    const { userID, app: clientApp } = sessionOf(request);
    const body = parseInput(changeEmailRequestSchema, request.body, 'body');
    await consumeOtt(ctx, { email: body.email, app: clientApp, ott: body.ott, ip: limitAddress(request) });
    await changeEmail(ctx, userID, body.email);
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
    const [{ email, ...profile }, storage] = await Promise.all([userDetailsOf(ctx, userID), storageOf(ctx, userID)]);
    const details: UserDetailsResponse = {
      email,
      usage: storage.usage,
      storageBonus: 0,
      subscription: freeSubscription(userID, storageQuotaOf(ctx)),
      profileData: { ...profile, passkeyCount: 0 },
      bonusData: { storageBonuses: [] },
    };
    if (query.memoryCount === 'true') details.fileCount = storage.fileCount;
    return details;
  });

  app.put('/users/email-mfa', { config: { auth: true } }, async (request, reply) => {
    const { isEnabled } = parseInput(setEmailMfaRequestSchema, request.body, 'body');
    await setEmailMfa(ctx, sessionOf(request).userID, isEnabled);
    return reply.code(200).send();
  });

  app.get('/users/public-key', { config: { auth: true, rateLimit: 'publicKey' } }, async (request) => {
    const { email } = parseInput(publicKeyQuerySchema, request.query, 'query');
    return { publicKey: await publicKeyOf(ctx, email) } satisfies PublicKeyResponse;
  });

  app.post('/users/logout', { config: { auth: true } }, async (request) => {
    await logout(ctx, sessionOf(request));
    return {};
  });

  app.get('/users/sessions', { config: { auth: true } }, async (request) => {
    return { sessions: await sessionsOf(ctx, sessionOf(request)) } satisfies SessionsResponse;
  });

  app.delete('/users/session', { config: { auth: true } }, async (request) => {
    const { userID } = sessionOf(request);
    const { token } = parseInput(terminateSessionQuerySchema, request.query, 'query');
    await endSession(ctx, userID, token);
    return {};
  });
}

/**
 * When the free plan ends: never, in effect (museum writes 100 years after sign-up). Ente's photos app
 * calls a subscription whose expiryTime has passed "expired" and asks the person to renew.
 */
const freePlanExpiryTime = Date.UTC(2126, 0, 1) * 1000;

/**
 * The one plan of a server without billing. `period` is the free plan's ("year", as /billing/user-plans
 * says): Ente's photos app keeps only "month" or "year" when it parses the details, cannot parse what it
 * kept after any other value, and shows a blank page on the next load.
 */
function freeSubscription(userID: number, storage: number): UserDetailsResponse['subscription'] {
  return {
    id: 0,
    userID,
    productID: 'free',
    storage,
    originalTransactionID: 'none',
    expiryTime: freePlanExpiryTime,
    paymentProvider: '',
    attributes: {},
    price: '',
    period: 'year',
  };
}
