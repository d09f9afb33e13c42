// Route rate limits (docs/protocol.md#rate-limits): routes declare `config: { rateLimit }` and get a
// hook that counts the request in PostgreSQL (shared by every server process) and answers 429 past
// the limit. A limit of 0 attaches no hook at all. Each kind of limit is a row of `limits`.
import type { FastifyContextConfig, FastifyRequest } from 'fastify';

import type { Config } from '../config.ts';
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

type RateLimitKind = NonNullable<FastifyContextConfig['rateLimit']>;

/**
 * Each limit as one row: how many requests (0: off) in which window, and whom it counts. `'ip'` and `'user'`
 * count per client address or per user, for each path apart; an `area` counts per user every route of that area
 * together.
 */
const limits: Record<
  RateLimitKind,
  { allowed: (config: Config) => number; windowMicros: number; counts: 'ip' | 'user' | { area: string } }
> = {
  ip: { allowed: (config) => config.RATE_LIMIT_PER_MINUTE, windowMicros: MICROS_PER_MINUTE, counts: 'ip' },
  user: { allowed: (config) => config.RATE_LIMIT_PER_MINUTE, windowMicros: MICROS_PER_MINUTE, counts: 'user' },
  publicKey: {
    allowed: (config) => config.RATE_LIMIT_PUBLIC_KEY_PER_MINUTE,
    windowMicros: MICROS_PER_MINUTE,
    counts: 'user',
  },
  uploadUrl: {
    allowed: (config) => config.PHOTOS_UPLOAD_URLS_PER_MINUTE,
    windowMicros: MICROS_PER_MINUTE,
    counts: 'user',
  },
  authenticatorWrite: {
    allowed: (config) => config.AUTHENTICATOR_WRITES_PER_HOUR,
    windowMicros: MICROS_PER_HOUR,
    counts: { area: 'authenticator' },
  },
  userEntityWrite: {
    allowed: (config) => config.USER_ENTITY_WRITES_PER_HOUR,
    windowMicros: MICROS_PER_HOUR,
    counts: { area: 'user-entity' },
  },
};

/** The factory that puts a limit on routes with `rateLimit`; it must come after the token check. */
export function registerRateLimits(ctx: Context): RouteHookFactory {
  return (route) => {
    const kind = route.config?.rateLimit;
    if (!kind) return undefined;
    const { allowed, windowMicros, counts } = limits[kind];
    const perWindow = allowed(ctx.config);
    if (perWindow <= 0) return undefined;
    const url = route.url;
    const keyOf = (request: FastifyRequest) => {
      if (counts === 'ip') return `route:ip:${limitAddress(request)}:${url}`;
      if (counts === 'user') return `route:user:${request.session?.userID}:${url}`;
      return `${counts.area}-writes:user:${request.session?.userID}`;
    };
    return async (request: FastifyRequest) => {
      if (!(await ctx.limiter.allow(keyOf(request), perWindow, windowMicros))) throw rateLimited();
    };
  };
}
