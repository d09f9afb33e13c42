// The one onRoute hook: each route declares what it needs in its `config` (`auth`, `rateLimit`), and
// the concerns that implement those turn the declaration into hooks on that route only, once, at
// registration. It also records the route list (tests check that they cover every route).
import type { FastifyInstance, onRequestAsyncHookHandler, onRequestHookHandler, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** "METHOD /path" of every API route, for tests that must cover them all. */
    routeList: string[];
  }
}

/** The hook a concern attaches to `route`, if its `config` asks for it. */
export type RouteHookFactory = (route: RouteOptions) => onRequestHookHandler | onRequestAsyncHookHandler | undefined;

/** Registers the onRoute hook; `factories` run in order, so their hooks run in that order too. */
export function registerRouteHooks(app: FastifyInstance, factories: readonly RouteHookFactory[]): void {
  const routeList: string[] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (route) => {
    const hooks = [route.onRequest ?? []].flat();
    for (const factory of factories) {
      const hook = factory(route);
      if (hook) hooks.push(hook);
    }
    route.onRequest = hooks;
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeList.push(`${method} ${route.url}`);
  });
}
