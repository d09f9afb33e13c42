// Builds the Fastify application: opens the database, builds the services the routes use (the
// Context), registers the concerns every request passes through, then the route modules. Kept apart
// from main.ts so that tests can build it and listen on port 0.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';

import type { PGlite } from '@electric-sql/pglite';
import Fastify, { LogController, type FastifyHttpOptions, type FastifyInstance } from 'fastify';

import type { Mailer } from './adapters/mailer.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { registerBodyDeadlines } from './http/body-deadlines.ts';
import { registerBodyTypeCheck } from './http/content-type.ts';
import { answerClientError, answerFrameworkError, registerErrorHandlers } from './http/errors.ts';
import { registerRateLimits } from './http/rate-limits.ts';
import { registerRequestHooks } from './http/request-hooks.ts';
import { registerRouteHooks } from './http/route-hooks.ts';
import { registerTokenCheck } from './http/token-check.ts';
import { parseEveryBodyAsJson } from './http/validation.ts';
import { proxyTrust } from './lib/addresses.ts';
import type { Clock } from './lib/clock.ts';
import { registerAuthenticatorRoutes } from './routes/authenticator.ts';
import { registerCastRoutes } from './routes/cast.ts';
import { registerCollectionRoutes } from './routes/collections.ts';
import { registerFileRoutes } from './routes/files.ts';
import { registerGallerySupportRoutes } from './routes/gallery-support.ts';
import { registerObjectRoutes } from './routes/objects.ts';
import { registerPasskeyRoutes } from './routes/passkeys.ts';
import { registerPingRoute } from './routes/ping.ts';
import { registerPublicLinkRoutes } from './routes/public-links.ts';
import { registerSrpRoutes } from './routes/srp.ts';
import { registerTrashRoutes } from './routes/trash.ts';
import { registerTwoFactorRoutes } from './routes/two-factor.ts';
import { registerUserEntityRoutes } from './routes/user-entities.ts';
import { registerUserRoutes } from './routes/users.ts';
import { afterAnswer, closeContext, createContext, type Context } from './services/context.ts';
import { schedulePurge } from './services/maintenance.ts';
import { scheduleObjectSweep } from './services/object-ledger.ts';
import {
  checkObjectStoreAtStart,
  embeddedStoreOf,
  openObjectStore,
  type OpenObjectStore,
} from './services/object-store.ts';
import { scheduleTrashExpiry } from './services/trash.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The services the routes use (tests reach the database through it). */
    ctx: Context;
    /** The photos' object store, embedded or S3 (tests sign URLs through it). */
    objectStore: OpenObjectStore;
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
  const app = Fastify(fastifyOptions(config));
  const db = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    pglite: options.pglite,
  });
  const ctx = await createContext(config, db, app.log, options);
  app.decorate('ctx', ctx);
  const stopPurge = schedulePurge(ctx);
  const objects = await openObjectStore(ctx);
  app.decorate<OpenObjectStore>('objectStore', objects);
  const stopSweep = scheduleObjectSweep(ctx, objects);
  const stopTrashExpiry = scheduleTrashExpiry(ctx);
  afterAnswer(
    ctx,
    checkObjectStoreAtStart(ctx, objects).then(() => undefined),
  );
  app.addHook('onClose', async () => {
    stopPurge();
    stopTrashExpiry();
    await stopSweep();
    await objects.close();
    await closeContext(ctx);
  });

  registerErrorHandlers(app);
  parseEveryBodyAsJson(app);
  registerRequestHooks(app, config.APP_ORIGINS);
  registerBodyDeadlines(app);
  // Before any route hook: a body that is not JSON is refused before it counts against a limit.
  registerBodyTypeCheck(app);
  // The token check comes first: per-user rate limits count by the session it finds.
  registerRouteHooks(app, [registerTokenCheck(app, ctx), registerRateLimits(ctx)]);

  registerPingRoute(app, ctx);
  registerUserRoutes(app, ctx);
  registerSrpRoutes(app, ctx);
  registerTwoFactorRoutes(app, ctx);
  registerPasskeyRoutes(app, ctx);
  registerAuthenticatorRoutes(app, ctx);
  registerUserEntityRoutes(app, ctx);
  registerCollectionRoutes(app, ctx);
  registerFileRoutes(app, ctx, objects);
  registerTrashRoutes(app, ctx);
  registerPublicLinkRoutes(app, ctx, objects);
  registerGallerySupportRoutes(app, ctx);
  registerCastRoutes(app, ctx, objects);
  // An S3 store's URLs go to the store itself.
  const embedded = embeddedStoreOf(objects);
  if (embedded) registerObjectRoutes(app, embedded);
  return app;
}

function fastifyOptions(config: Config): FastifyHttpOptions<Server> {
  return {
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            // Request lines (debug) must not carry a token passed as ?token= (or a public link's, or a cast token).
            serializers: {
              req: (request: { method: string; url: string; ip?: string }) => ({
                method: request.method,
                url: request.url.replace(
                  /([?&](?:token|accessToken|accessTokenJWT|castToken)=)[^&]*/gi,
                  '$1[redacted]',
                ),
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
    // The client is the right-most X-Forwarded-For address that is not one of the operator's proxies.
    trustProxy: proxyTrust(config.TRUST_PROXY),
    bodyLimit: config.BODY_LIMIT_BYTES,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 200 },
    // Node's one deadline for every request is off: http/body-deadlines.ts gives each request its own (an
    // API body a minute in all, an object's body a minute without a byte). Headers still have a minute.
    requestTimeout: 0,
    // Refusals made before a route runs, in the protocol's shape (apps/server/src/http/errors.ts):
    // Fastify's router, Node's HTTP parser, and HTTP/1.1 without Host (refused by an onRequest hook).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    http: { requireHostHeader: false },
  };
}
