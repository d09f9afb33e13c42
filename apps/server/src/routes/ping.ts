// GET /ping (protocol §6.5): the liveness answer clients check before trusting an origin.
import type { PingResponse } from '@ente/protocol';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../services/context.ts';

export function registerPingRoute(app: FastifyInstance, ctx: Context): void {
  app.get('/ping', async (): Promise<PingResponse> => ({ message: 'pong', id: ctx.config.BUILD_ID }));
}
