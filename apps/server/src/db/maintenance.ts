// The purge's statements: delete the rows each cut-off says can no longer matter, and (PGlite) refresh
// the planner's statistics. Which cut-offs apply is services/maintenance.ts's.
import { sql } from 'kysely';

import type { Db } from './database.ts';

/** Times in µs: rows at or before (expiries) or before (the others) these are deleted. */
export interface PurgeCutoffs {
  now: number;
  ottSendsBefore: number;
  rateLimitWindowsBefore: number;
  usedTotpCodesBefore: number;
  tokensIdleBefore: number;
  srpSessionsBefore: number;
}

export async function deleteExpiredRows(db: Db, cutoffs: PurgeCutoffs): Promise<void> {
  const { now } = cutoffs;
  await db.deleteFrom('otts').where('expires_at', '<=', now).execute();
  await db.deleteFrom('ott_sends').where('sent_at', '<', cutoffs.ottSendsBefore).execute();
  await db.deleteFrom('rate_limits').where('window_start', '<', cutoffs.rateLimitWindowsBefore).execute();
  await db.deleteFrom('temp_two_factor').where('expires_at', '<=', now).execute();
  await db.deleteFrom('two_factor_sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('webauthn_sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('passkey_login_sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('two_factor_used_codes').where('used_at', '<', cutoffs.usedTotpCodesBefore).execute();
  await db
    .deleteFrom('tokens')
    .where((eb) => eb.or([eb('is_deleted', '=', true), eb('last_used_at', '<', cutoffs.tokensIdleBefore)]))
    .execute();
  await db.deleteFrom('srp_sessions').where('created_at', '<', cutoffs.srpSessionsBefore).execute();
}

/** Refreshes the planner's statistics (PGlite has no autovacuum to do it). */
export async function analyze(db: Db): Promise<void> {
  await sql`ANALYZE`.execute(db);
}
