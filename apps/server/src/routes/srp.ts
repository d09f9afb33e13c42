// SRP routes (docs/protocol.md#srp-setup, docs/protocol.md#srp-login): registering a verifier (setup →
// complete, or update for a password change) and logging in with it (attributes → create-session →
// verify-session). The rules are services/srp.ts's.
import type { FastifyInstance } from 'fastify';

import {
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

import { limitAddress } from '../http/client-address.ts';
import { requestClient } from '../http/request-client.ts';
import { sessionOf } from '../http/token-check.ts';
import { checkKdfStrength, parseInput } from '../http/validation.ts';
import type { Context } from '../services/context.ts';
import {
  beginSrpSetup,
  completeSrpSetup,
  createSrpLoginSession,
  srpAttributesOf,
  updateSrpPassword,
  verifySrpLoginSession,
} from '../services/srp.ts';

export function registerSrpRoutes(app: FastifyInstance, ctx: Context): void {
  app.get('/users/srp/attributes', { config: { rateLimit: 'ip' } }, async (request) => {
    const { email } = parseInput(srpAttributesQuerySchema, request.query, 'query');
    return { attributes: await srpAttributesOf(ctx, email) } satisfies SrpAttributesResponse;
  });

  app.post('/users/srp/setup', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const { userID } = sessionOf(request);
    const body = parseInput(srpSetupRequestSchema, request.body, 'body');
    return (await beginSrpSetup(ctx, userID, limitAddress(request), body)) satisfies SrpSetupResponse;
  });

  app.post('/users/srp/complete', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const { userID } = sessionOf(request);
    const body = parseInput(srpCompleteRequestSchema, request.body, 'body');
    const srpM2 = await completeSrpSetup(ctx, userID, body);
    return { setupID: body.setupID, srpM2 } satisfies SrpCompleteResponse;
  });

  app.post('/users/srp/update', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const session = sessionOf(request);
    const body = parseInput(srpUpdateRequestSchema, request.body, 'body');
    checkKdfStrength(body.updatedKeyAttr.memLimit, body.updatedKeyAttr.opsLimit);
    const srpM2 = await updateSrpPassword(ctx, session, body);
    return { setupID: body.setupID, srpM2 } satisfies SrpCompleteResponse;
  });

  app.post('/users/srp/create-session', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(srpCreateSessionRequestSchema, request.body, 'body');
    return (await createSrpLoginSession(ctx, limitAddress(request), body)) satisfies SrpCreateSessionResponse;
  });

  app.post('/users/srp/verify-session', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(srpVerifySessionRequestSchema, request.body, 'body');
    return verifySrpLoginSession(ctx, body, request.clientApp, requestClient(request));
  });
}
