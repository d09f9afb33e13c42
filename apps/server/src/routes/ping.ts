// GET /ping (docs/protocol.md#ping): the liveness answer clients check before trusting an origin.
import type { FastifyInstance } from 'fastify';

import type { PingResponse } from '@ente/protocol';

import type { Context } from '../services/context.ts';

export function registerPingRoute(app: FastifyInstance, ctx: Context): void {
  app.get('/ping', (): PingResponse => ({ message: 'pong', id: ctx.config.BUILD_ID }));
}
