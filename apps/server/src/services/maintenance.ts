// Periodic removal of rows that can no longer matter: expired codes and sessions, old rate-limit
// windows, spent TOTP codes. Each process runs it; the deletes are idempotent. On the embedded PGlite,
// also the planner's statistics, which PostgreSQL's autovacuum keeps and PGlite has nothing to keep.
import { castLimits, limits } from '@ente/protocol';

import { deleteStaleCasts } from '../db/casting.ts';
import { analyze, deleteExpiredRows } from '../db/maintenance.ts';
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../lib/clock.ts';
import { castCodeMicros } from './cast.ts';
import type { Context } from './context.ts';

export async function purgeExpired(ctx: Context): Promise<void> {
  const now = ctx.clock.nowMicros();
  await deleteExpiredRows(ctx.db, {
    now,
    ottSendsBefore: now - MICROS_PER_HOUR,
    rateLimitWindowsBefore: now - 2 * MICROS_PER_HOUR,
    // A TOTP code is valid for at most 90 s; remembering it for 10 minutes is ample.
    usedTotpCodesBefore: now - 10 * MICROS_PER_MINUTE,
    // Revoked tokens, and tokens past the idle limit, can never authenticate again.
    tokensIdleBefore: now - limits.tokenIdleDays * MICROS_PER_DAY,
    // SRP sessions count towards the hourly unverified limit; fake ones are kept a day
    // (docs/protocol.md#second-factor-and-srp-limits).
    srpSessionsBefore: now - MICROS_PER_DAY,
  });
  // Cast codes nobody paired within their hour, casts idle for their days, revoked ones (services/cast.ts).
  await deleteStaleCasts(ctx.db, {
    unpairedBefore: now - castCodeMicros(ctx),
    idleBefore: now - castLimits.tokenIdleDays * MICROS_PER_DAY,
  });
}

/**
 * Runs `purgeExpired` every `intervalMs`; on PGlite also ANALYZE at start and every hour (without
 * statistics the diff of a user with many codes is a bitmap scan and a sort of every later row, not an
 * ordered index scan: 17 times slower per page at 10,000 codes). Returns a stop function.
 */
export function schedulePurge(ctx: Context, intervalMs = 60_000): () => void {
  const timer = setInterval(() => {
    purgeExpired(ctx).catch((error: unknown) => ctx.log.warn({ err: error }, 'purge of expired rows failed'));
  }, intervalMs);
  timer.unref();
  if (ctx.config.DATABASE_URL) return () => clearInterval(timer);
  const refreshStatistics = () => {
    analyze(ctx.db).catch((error: unknown) => ctx.log.warn({ err: error }, 'ANALYZE failed'));
  };
  refreshStatistics();
  const statistics = setInterval(refreshStatistics, 60 * 60_000);
  statistics.unref();
  return () => {
    clearInterval(timer);
    clearInterval(statistics);
  };
}
