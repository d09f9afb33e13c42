// Everything a route needs, built once at start and passed explicitly (no module-level state).

import { createMailer, type Mailer } from '../adapters/mailer.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import type { Log } from '../lib/log.ts';
import { createSrpPool, type SrpPool } from '../srp/pool.ts';
import { SyncCache } from './cache.ts';
import { DIFF_PAGES_BYTES, DiffPages } from './diff-pages.ts';
import { localInvalidator, postgresInvalidator, type Invalidator } from './invalidation.ts';
import { RateLimiter } from './rate-limiter.ts';
import { loadServerSecrets, type ServerSecrets } from './secrets.ts';

export interface Context {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  secrets: ServerSecrets;
  limiter: RateLimiter;
  cache: SyncCache;
  /** Serialized pages of collections' file diffs. */
  diffPages: DiffPages;
  srp: SrpPool;
  invalidator: Invalidator;
  log: Log;
  /** Work that goes on after its request was answered (mail); closing waits for it. */
  pending: Set<Promise<void>>;
}

/** Builds the services on an open database; `clock` and `mailer` replace the real ones (tests). */
export async function createContext(
  config: Config,
  db: Db,
  log: Log,
  replacements: { clock?: Clock; mailer?: Mailer } = {},
): Promise<Context> {
  const clock = replacements.clock ?? systemClock;
  const cache = new SyncCache({ clock, ttlSeconds: config.CACHE_TTL_SECONDS });
  const invalidator = config.DATABASE_URL
    ? await postgresInvalidator(config.DATABASE_URL, db, cache, log)
    : localInvalidator(cache);
  return {
    config,
    db,
    clock,
    mailer: replacements.mailer ?? createMailer(config, log),
    secrets: await loadServerSecrets(db, config.SERVER_SECRET),
    limiter: new RateLimiter(db, clock),
    cache,
    diffPages: new DiffPages(DIFF_PAGES_BYTES),
    srp: createSrpPool(config.SRP_THREADS),
    invalidator,
    log,
    pending: new Set(),
  };
}

/**
 * Runs `work` after the request is answered, so that the answer's time does not depend on it; it must
 * handle its own failures. Closing the context waits for it.
 */
export function afterAnswer(ctx: Context, work: Promise<void>): void {
  const tracked = work.finally(() => ctx.pending.delete(tracked));
  ctx.pending.add(tracked);
}

/** Stops what the context started and closes the database. */
export async function closeContext(ctx: Context): Promise<void> {
  await Promise.allSettled(ctx.pending);
  ctx.mailer.close();
  await ctx.srp.close();
  await ctx.invalidator.close();
  await ctx.db.destroy();
}
