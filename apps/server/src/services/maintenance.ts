// Periodic removal of rows that can no longer matter: expired codes and sessions, old rate-limit
// windows, spent TOTP codes. Each process runs it; the deletes are idempotent. On the embedded PGlite,
// also the planner's statistics, which PostgreSQL's autovacuum keeps and PGlite has nothing to keep.
import { sql } from 'kysely';

import { limits } from '@ente/protocol';

import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../lib/clock.ts';
import type { Context } from './context.ts';

export async function purgeExpired(ctx: Context): Promise<void> {
  const now = ctx.clock.nowMicros();
  const { db } = ctx;
  await db.deleteFrom('otts').where('expires_at', '<=', now).execute();
  await db
    .deleteFrom('ott_sends')
    .where('sent_at', '<', now - MICROS_PER_HOUR)
    .execute();
  await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', now - 2 * MICROS_PER_HOUR)
    .execute();
  await db.deleteFrom('temp_two_factor').where('expires_at', '<=', now).execute();
  await db.deleteFrom('two_factor_sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('webauthn_sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('passkey_login_sessions').where('expires_at', '<=', now).execute();
  // A TOTP code is valid for at most 90 s; remembering it for 10 minutes is ample.
  await db
    .deleteFrom('two_factor_used_codes')
    .where('used_at', '<', now - 10 * MICROS_PER_MINUTE)
    .execute();
  // Revoked tokens, and tokens past the idle limit, can never authenticate again.
  await db
    .deleteFrom('tokens')
    .where((eb) =>
      eb.or([eb('is_deleted', '=', true), eb('last_used_at', '<', now - limits.tokenIdleDays * MICROS_PER_DAY)]),
    )
    .execute();
  // SRP sessions count towards the hourly unverified limit; fake ones are kept a day
  // (docs/protocol.md#second-factor-and-srp-limits).
  await db
    .deleteFrom('srp_sessions')
    .where('created_at', '<', now - MICROS_PER_DAY)
    .execute();
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
  const analyze = () => {
    sql`ANALYZE`.execute(ctx.db).catch((error: unknown) => ctx.log.warn({ err: error }, 'ANALYZE failed'));
  };
  analyze();
  const statistics = setInterval(analyze, 60 * 60_000);
  statistics.unref();
  return () => {
    clearInterval(timer);
    clearInterval(statistics);
  };
}
