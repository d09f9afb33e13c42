// Two-factor (TOTP) routes (docs/protocol.md#two-factor): setup → enable on the account; verify, recover and
// remove during login, against the 2FA session that verification success handed out. Recover and remove
// also serve passkey recovery (`twoFactorType=passkey`, against the passkey login session). The rules are
// services/two-factor.ts's.
import type { FastifyInstance } from 'fastify';

import {
  enableTwoFactorRequestSchema,
  removeTwoFactorRequestSchema,
  twoFactorRecoverQuerySchema,
  verifyTwoFactorRequestSchema,
  type TwoFactorRecoverResponse,
  type TwoFactorSetupResponse,
  type TwoFactorStatusResponse,
} from '@ente/protocol';

import { requestClient } from '../http/request-client.ts';
import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import type { Context } from '../services/context.ts';
import {
  disableTwoFactor,
  enableTwoFactor,
  removeTwoFactor,
  setUpTwoFactor,
  twoFactorRecoveryOf,
  twoFactorStatusOf,
  verifyTwoFactor,
} from '../services/two-factor.ts';

export function registerTwoFactorRoutes(app: FastifyInstance, ctx: Context): void {
  app.get('/users/two-factor/status', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    return { status: await twoFactorStatusOf(ctx, sessionOf(request).userID) } satisfies TwoFactorStatusResponse;
  });

  app.post('/users/two-factor/setup', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    return (await setUpTwoFactor(ctx, sessionOf(request).userID)) satisfies TwoFactorSetupResponse;
  });

  app.post('/users/two-factor/enable', { config: { auth: true, rateLimit: 'user' } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const body = parseInput(enableTwoFactorRequestSchema, request.body, 'body');
    await enableTwoFactor(ctx, userID, body);
    return reply.code(200).send();
  });

  app.post('/users/two-factor/verify', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(verifyTwoFactorRequestSchema, request.body, 'body');
    return verifyTwoFactor(ctx, body, request.clientApp, requestClient(request));
  });

  app.get('/users/two-factor/recover', { config: { rateLimit: 'ip' } }, async (request) => {
    const { sessionID, twoFactorType } = parseInput(twoFactorRecoverQuerySchema, request.query, 'query');
    return (await twoFactorRecoveryOf(ctx, sessionID, twoFactorType)) satisfies TwoFactorRecoverResponse;
  });

  app.post('/users/two-factor/remove', { config: { rateLimit: 'ip' } }, async (request) => {
    const body = parseInput(removeTwoFactorRequestSchema, request.body, 'body');
    return removeTwoFactor(ctx, body, request.clientApp, requestClient(request));
  });

  app.post('/users/two-factor/disable', { config: { auth: true, rateLimit: 'user' } }, async (request, reply) => {
    await disableTwoFactor(ctx, sessionOf(request).userID);
    return reply.code(200).send();
  });
}
