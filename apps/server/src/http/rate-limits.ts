// Route rate limits (docs/protocol.md#rate-limits): routes declare `config: { rateLimit }` and get a
// hook that counts the request in PostgreSQL (shared by every server process) and answers 429 past
// the limit. A limit of 0 attaches no hook at all.
import type { FastifyRequest } from 'fastify';

import { MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../lib/clock.ts';
import type { Context } from '../services/context.ts';
import { limitAddress } from './client-address.ts';
import { rateLimited } from './errors.ts';
import type { RouteHookFactory } from './route-hooks.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Per client address (an IPv6 client's /64) and path, per user and path, the public-key allowance
     * (per user and path), the photos upload-URL allowance (per user and path), or the authenticator's or the
     * user entities' writes (per user, every writing route of the area together, per hour).
     */
    rateLimit?: 'ip' | 'user' | 'publicKey' | 'uploadUrl' | 'authenticatorWrite' | 'userEntityWrite';
  }
}

/** The factory that puts a limit on routes with `rateLimit`; it must come after the token check. */
export function registerRateLimits(ctx: Context): RouteHookFactory {
  return (route) => {
    const kind = route.config?.rateLimit;
    if (!kind) return undefined;
    const { config } = ctx;
    if (kind === 'authenticatorWrite' || kind === 'userEntityWrite') {
      const [perHour, area] =
        kind === 'authenticatorWrite'
          ? [config.AUTHENTICATOR_WRITES_PER_HOUR, 'authenticator']
          : [config.USER_ENTITY_WRITES_PER_HOUR, 'user-entity'];
      if (perHour <= 0) return undefined;
      return async (request: FastifyRequest) => {
        const key = `${area}-writes:user:${request.session?.userID}`;
        if (!(await ctx.limiter.allow(key, perHour, MICROS_PER_HOUR))) throw rateLimited();
      };
    }
    const perMinute =
      kind === 'publicKey'
        ? config.RATE_LIMIT_PUBLIC_KEY_PER_MINUTE
        : kind === 'uploadUrl'
          ? config.PHOTOS_UPLOAD_URLS_PER_MINUTE
          : config.RATE_LIMIT_PER_MINUTE;
    if (perMinute <= 0) return undefined;
    const url = route.url;
    return async (request: FastifyRequest) => {
      const who = kind === 'ip' ? `ip:${limitAddress(request)}` : `user:${request.session?.userID}`;
      if (!(await ctx.limiter.allow(`route:${who}:${url}`, perMinute, MICROS_PER_MINUTE))) throw rateLimited();
    };
  };
}
