// Everything a route needs, built once at start and passed explicitly (no module-level state).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { SrpPool } from '../srp/pool.ts';
import type { SyncCache } from './cache.ts';
import type { Invalidator } from './invalidation.ts';
import type { Mailer } from './mailer.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { ServerSecrets } from './secrets.ts';

export interface Context {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  secrets: ServerSecrets;
  limiter: RateLimiter;
  cache: SyncCache;
  srp: SrpPool;
  invalidator: Invalidator;
  log: FastifyBaseLogger;
}
