// User entity routes (docs/protocol.md#user-entities): museum's /user-entity/* store, where Ente's photos clients
// keep their encrypted location tags, people, smart albums, memories and contacts. The rules (the user's
// lock, the quota, which refusal) are services/user-entities.ts's; creates and updates are also limited per
// hour (the route's rate limit).
import type { FastifyInstance } from 'fastify';

import {
  createUserEntityKeyRequestSchema,
  createUserEntityRequestSchema,
  deleteUserEntityQuerySchema,
  updateUserEntityRequestSchema,
  userEntityDiffQuerySchema,
  userEntityKeyQuerySchema,
  type UserEntity,
  type UserEntityDiffResponse,
  type UserEntityKey,
} from '@ente/protocol';

import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import type { Context } from '../services/context.ts';
import {
  createUserEntity,
  createUserEntityKey,
  deleteUserEntity,
  updateUserEntity,
  userEntityDiff,
  userEntityKeyOf,
} from '../services/user-entities.ts';

export function registerUserEntityRoutes(app: FastifyInstance, ctx: Context): void {
  const auth = { config: { auth: true } } as const;
  /** Creates and updates: a token, and the account's hourly limit on writes. */
  const writes = { config: { auth: true, rateLimit: 'userEntityWrite' } } as const;

  app.get('/user-entity/key', auth, async (request) => {
    const { type } = parseInput(userEntityKeyQuerySchema, request.query, 'query');
    return (await userEntityKeyOf(ctx, sessionOf(request).userID, type)) satisfies UserEntityKey;
  });

  app.post('/user-entity/key', auth, async (request, reply) => {
    const body = parseInput(createUserEntityKeyRequestSchema, request.body, 'body');
    await createUserEntityKey(ctx, sessionOf(request).userID, body);
    return reply.code(200).send();
  });

  app.post('/user-entity/entity', writes, async (request) => {
    const body = parseInput(createUserEntityRequestSchema, request.body, 'body');
    return (await createUserEntity(ctx, sessionOf(request).userID, body)) satisfies UserEntity;
  });

  app.put('/user-entity/entity', writes, async (request) => {
    const body = parseInput(updateUserEntityRequestSchema, request.body, 'body');
    return (await updateUserEntity(ctx, sessionOf(request).userID, body)) satisfies UserEntity;
  });

  app.delete('/user-entity/entity', auth, async (request, reply) => {
    const { id } = parseInput(deleteUserEntityQuerySchema, request.query, 'query');
    await deleteUserEntity(ctx, sessionOf(request).userID, id);
    return reply.code(200).send();
  });

  app.get('/user-entity/entity/diff', auth, async (request) => {
    const query = parseInput(userEntityDiffQuerySchema, request.query, 'query');
    return (await userEntityDiff(ctx, sessionOf(request).userID, query)) satisfies UserEntityDiffResponse;
  });
}
