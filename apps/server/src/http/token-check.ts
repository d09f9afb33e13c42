// The token check of routes declared with `config: { auth: true }` (docs/protocol.md#auth-tokens), and
// `sessionOf` for their handlers. The check calls back at once when the session is cached, so the hot
// sync poll pays no promise for it.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

import type { Context } from '../services/context.ts';
import { authenticate, type AuthenticatedSession } from '../services/tokens.ts';
import { presentedToken, requestClient } from './request-client.ts';
import type { RouteHookFactory } from './route-hooks.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a valid token (X-Auth-Token or ?token=). */
    auth?: boolean;
  }
  interface FastifyRequest {
    session: AuthenticatedSession | null;
  }
}

/** Adds `request.session`; returns the factory that puts the check on routes with `auth: true`. */
export function registerTokenCheck(app: FastifyInstance, ctx: Context): RouteHookFactory {
  app.decorateRequest('session', null);
  const requireToken = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    let session: ReturnType<typeof authenticate>;
    try {
      session = authenticate(ctx, presentedToken(request), requestClient(request), request.clientApp);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (session instanceof Promise) {
      session.then((resolved) => {
        request.session = resolved;
        done();
      }, done);
    } else {
      request.session = session;
      done();
    }
  };
  return (route) => (route.config?.auth ? requireToken : undefined);
}

/** The authenticated session of a route declared with `auth: true`. */
export function sessionOf(request: FastifyRequest): AuthenticatedSession {
  if (!request.session) throw new Error('route is missing `config.auth`');
  return request.session;
}
