// Authenticator routes (docs/protocol.md#authenticator): the wrapped authenticator key and the encrypted
// entities, synced by diff. The rules (the per-user write lock, the quota, compare-and-set) are
// services/authenticator.ts's; creates and updates are also limited per hour (the route's rate limit).
import type { FastifyInstance } from 'fastify';

import {
  createAuthenticatorKeyRequestSchema,
  createEntityRequestSchema,
  deleteEntityQuerySchema,
  entityDiffQuerySchema,
  updateEntityRequestSchema,
} from '@ente/protocol';

import { sessionOf } from '../http/token-check.ts';
import { parseInput, parseRepeatedQuery } from '../http/validation.ts';
import {
  authenticatorKeyOf,
  createAuthenticatorKey,
  createEntity,
  deleteEntity,
  entityDiff,
  knownEmptyDiff,
  updateEntity,
} from '../services/authenticator.ts';
import type { Context } from '../services/context.ts';

export function registerAuthenticatorRoutes(app: FastifyInstance, ctx: Context): void {
  /** Creates and updates: a token, and the account's hourly limit on writes. */
  const writes = { auth: true, rateLimit: 'authenticatorWrite' } as const;
  app.get('/authenticator/key', { config: { auth: true } }, async (request) => {
    return authenticatorKeyOf(ctx, sessionOf(request).userID);
  });

  app.post('/authenticator/key', { config: { auth: true } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const body = parseInput(createAuthenticatorKeyRequestSchema, request.body, 'body');
    await createAuthenticatorKey(ctx, userID, body);
    return reply.code(200).send();
  });

  app.post('/authenticator/entity', { config: writes }, async (request) => {
    const { userID } = sessionOf(request);
    const body = parseInput(createEntityRequestSchema, request.body, 'body');
    return createEntity(ctx, userID, body);
  });

  app.put('/authenticator/entity', { config: writes }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const body = parseInput(updateEntityRequestSchema, request.body, 'body');
    await updateEntity(ctx, userID, body);
    return reply.code(200).send();
  });

  app.delete('/authenticator/entity', { config: { auth: true } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const query = parseInput(deleteEntityQuerySchema, request.query, 'query');
    await deleteEntity(ctx, userID, query);
    return reply.code(200).send();
  });

  // Not async: the common poll, "anything since my last sync?", is answered from memory, without a
  // promise, when this process knows nothing changed (See: [Note: Cache invalidation]).
  app.get('/authenticator/entity/diff', { config: { auth: true } }, (request, reply) => {
    const { userID } = sessionOf(request);
    const { sinceTime, limit } = parseRepeatedQuery(entityDiffQuerySchema, request);
    const known = knownEmptyDiff(ctx, userID, sinceTime);
    if (known) return reply.send(known);
    return entityDiff(ctx, userID, sinceTime, limit);
  });
}
