// Builds the Fastify application: the database and services, the hooks every request passes through
// (request id, CORS, security headers, token check, rate limits) and the route modules. Kept apart
// from main.ts so that tests can build it and listen on port 0.
import type { PGlite } from '@electric-sql/pglite';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type HookHandlerDoneFunction,
} from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { clientAppOf, type ClientApp } from './http/client-app.ts';
import { rateLimited, registerErrorHandlers } from './http/errors.ts';
import { parseEveryBodyAsJson } from './http/validation.ts';
import { systemClock, MICROS_PER_MINUTE, type Clock } from './lib/clock.ts';
import { registerAuthenticatorRoutes } from './routes/authenticator.ts';
import { registerPingRoute } from './routes/ping.ts';
import { registerSrpRoutes } from './routes/srp.ts';
import { registerTwoFactorRoutes } from './routes/two-factor.ts';
import { registerUserRoutes } from './routes/users.ts';
import type { Context } from './services/context.ts';
import { SyncCache } from './services/cache.ts';
import { localInvalidator, postgresInvalidator } from './services/invalidation.ts';
import { createMailer, type Mailer } from './services/mailer.ts';
import { schedulePurge } from './services/maintenance.ts';
import { RateLimiter } from './services/rate-limiter.ts';
import { loadServerSecrets } from './services/secrets.ts';
import { authenticate, type AuthenticatedSession } from './services/tokens.ts';
import { createSrpPool } from './srp/pool.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a valid token (X-Auth-Token or ?token=). */
    auth?: boolean;
    /** Protocol §1.3: per client IP and path, per user and path, or the public-key allowance. */
    rateLimit?: 'ip' | 'user' | 'publicKey';
  }
  interface FastifyRequest {
    clientApp: ClientApp;
    session: AuthenticatedSession | null;
  }
  interface FastifyInstance {
    /** The services the routes use (tests reach the database through it). */
    ctx: Context;
    /** "METHOD /path" of every API route, for tests that must cover them all. */
    routeList: string[];
  }
}

export interface AppOptions {
  clock?: Clock;
  /** Replaces the mailer the configuration would build (tests capture codes this way). */
  mailer?: Mailer;
  /** Use this PGlite instead of opening one from the configuration. */
  pglite?: PGlite;
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            // Request lines (debug) must not carry a token passed as ?token=.
            serializers: {
              req: (request: { method: string; url: string; ip?: string }) => ({
                method: request.method,
                url: request.url.replace(/([?&]token=)[^&]*/gi, '$1[redacted]'),
                remoteAddress: request.ip,
              }),
            },
          },
    logController: new LogController({
      disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace',
    }),
    genReqId: () => randomUUID(),
    // No pino child per request (it costs a tenth of the hot sync poll's throughput); the few lines
    // logged per request name the request id themselves.
    childLoggerFactory: (logger) => logger,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: config.BODY_LIMIT_BYTES,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200 },
  });
  const db = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    pglite: options.pglite,
  });
  const clock = options.clock ?? systemClock;
  const cache = new SyncCache({ ttlMs: config.CACHE_TTL_SECONDS * 1000 });
  const invalidator = config.DATABASE_URL
    ? await postgresInvalidator(config.DATABASE_URL, db, cache, app.log)
    : localInvalidator(cache);
  const ctx: Context = {
    config,
    db,
    clock,
    mailer: options.mailer ?? createMailer(config, app.log),
    secrets: await loadServerSecrets(db, config.SERVER_SECRET),
    limiter: new RateLimiter(db, clock),
    cache,
    srp: createSrpPool(config.SRP_THREADS),
    invalidator,
    log: app.log,
  };
  app.decorate('ctx', ctx);
  const stopPurge = schedulePurge(ctx);
  app.addHook('onClose', async () => {
    stopPurge();
    ctx.mailer.close();
    await ctx.srp.close();
    await invalidator.close();
    await db.destroy();
  });

  registerErrorHandlers(app);
  parseEveryBodyAsJson(app);
  app.decorateRequest('clientApp', 'photos');
  app.decorateRequest('session', null);

  // Every request: its id, security headers, CORS, and its app. A callback hook (not async), with the
  // fixed headers prepared once, because it runs for every request, including the hot sync poll.
  const allowedOrigins = new Set(config.APP_ORIGINS);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.headers(request.method === 'GET' ? getHeaders : commonHeaders);
    const origin = request.headers.origin;
    const allowed = origin !== undefined && allowedOrigins.has(origin);
    if (allowed) reply.headers(corsHeaders(origin));
    if (request.method === 'OPTIONS') {
      // Preflight: 200 rather than 204, which Safari mishandles (protocol §1.1).
      if (allowed) reply.headers(preflightHeaders);
      reply.code(200).send();
      return;
    }
    request.clientApp = clientAppOf(request.headers['x-client-package']);
    done();
  });

  // Routes declare `config: {auth, rateLimit}`; the matching hooks are attached to those routes only,
  // once, here. The token check calls back at once when the session is cached (no promise per request).
  const requireToken = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    let session: ReturnType<typeof authenticate>;
    try {
      session = authenticate(ctx, request, request.clientApp);
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
  const limitRate = (kind: 'ip' | 'user' | 'publicKey', url: string, perMinute: number) => {
    return async (request: FastifyRequest) => {
      const who = kind === 'ip' ? `ip:${request.ip}` : `user:${request.session?.userID}`;
      if (!(await ctx.limiter.allow(`route:${who}:${url}`, perMinute, MICROS_PER_MINUTE))) throw rateLimited();
    };
  };
  app.addHook('onRoute', (route) => {
    const hooks = [route.onRequest ?? []].flat();
    if (route.config?.auth) hooks.push(requireToken);
    const kind = route.config?.rateLimit;
    if (kind) {
      const perMinute = kind === 'publicKey' ? config.RATE_LIMIT_PUBLIC_KEY_PER_MINUTE : config.RATE_LIMIT_PER_MINUTE;
      // 0 turns the limit off: no hook at all.
      if (perMinute > 0) hooks.push(limitRate(kind, route.url, perMinute));
    }
    route.onRequest = hooks;
  });

  const routeList: string[] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeList.push(`${method} ${route.url}`);
  });
  registerPingRoute(app, ctx);
  registerUserRoutes(app, ctx);
  registerSrpRoutes(app, ctx);
  registerTwoFactorRoutes(app, ctx);
  registerAuthenticatorRoutes(app, ctx);
  return app;
}

const commonHeaders = { 'x-content-type-options': 'nosniff', vary: 'Origin' };
const getHeaders = { ...commonHeaders, 'cache-control': 'no-store' };

function corsHeaders(origin: string) {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': 'X-Request-Id',
  };
}

const corsAllowedHeaders = [
  'Content-Type',
  'Content-Length',
  'Accept-Encoding',
  'X-CSRF-Token',
  'Authorization',
  'Accept',
  'Origin',
  'Cache-Control',
  'X-Requested-With',
  'X-Auth-Token',
  'X-Auth-Access-Token',
  'X-Auth-Access-Token-JWT',
  'X-Cast-Access-Token',
  'X-Client-Package',
  'X-Client-Version',
  'Range',
].join(', ');

const preflightHeaders = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS, GET, PUT, PATCH, DELETE',
  'Access-Control-Allow-Headers': corsAllowedHeaders,
  'Access-Control-Max-Age': '1728000',
};
