// The object ledger's queries: store objects that are swept unless confirmed, or due to go. Each takes
// the database or a transaction; the rules (delays, who may confirm, the lease) are
// services/object-ledger.ts's.
import { sql } from 'kysely';

import type { Db } from './database.ts';

export interface LedgerRow {
  objectKey: string;
  uploadId: string | null;
  reason: 'unconfirmed' | 'deleted';
  claims: number;
}

export async function insertUnconfirmedObject(
  db: Db,
  row: { objectKey: string; userID: number; uploadId: string | null; sweepAfter: number; now: number },
): Promise<void> {
  await db
    .insertInto('object_ledger')
    .values({
      object_key: row.objectKey,
      user_id: row.userID,
      upload_id: row.uploadId,
      reason: 'unconfirmed',
      sweep_after: row.sweepAfter,
      created_at: row.now,
    })
    .execute();
}

/**
 * Locks (FOR UPDATE) and returns those of `keys` that are unconfirmed objects of `userID`, never claimed
 * by a sweep and not yet due. A concurrent confirmation waits for the lock, then no longer finds the rows.
 */
export async function lockConfirmableObjects(db: Db, userID: number, keys: readonly string[], now: number) {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('object_ledger')
    .select('object_key')
    .where('object_key', 'in', keys)
    .where('user_id', '=', userID)
    .where('reason', '=', 'unconfirmed')
    .where('claims', '=', 0)
    .where('sweep_after', '>', now)
    .forUpdate()
    .execute();
  return rows.map((row) => row.object_key);
}

export async function deleteLedgerRows(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.deleteFrom('object_ledger').where('object_key', 'in', keys).execute();
}

/** Marks `keys` due at `sweepAfter` for deletion (rows of unconfirmed uploads become deletions too). */
export async function upsertDeletions(db: Db, keys: readonly string[], sweepAfter: number, now: number) {
  if (keys.length === 0) return;
  await db
    .insertInto('object_ledger')
    .values(
      keys.map((key) => ({
        object_key: key,
        user_id: null,
        upload_id: null,
        reason: 'deleted' as const,
        sweep_after: sweepAfter,
        created_at: now,
      })),
    )
    .onConflict((oc) => oc.column('object_key').doUpdateSet({ reason: 'deleted', sweep_after: sweepAfter }))
    .execute();
}

/**
 * Claims up to `limit` rows due at `now` (oldest first) by moving them to `leaseUntil`: rows another
 * process is claiming at the same moment are skipped (SKIP LOCKED), and a claimed row is due again, for
 * anyone, once the lease has passed.
 */
export async function claimDueObjects(db: Db, now: number, leaseUntil: number, limit: number): Promise<LedgerRow[]> {
  const { rows } = await sql<{
    object_key: string;
    upload_id: string | null;
    reason: LedgerRow['reason'];
    claims: number;
  }>`
    UPDATE object_ledger SET sweep_after = ${leaseUntil}, claims = claims + 1
    WHERE object_key IN (
      SELECT object_key FROM object_ledger WHERE sweep_after <= ${now}
      ORDER BY sweep_after LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )
    RETURNING object_key, upload_id, reason, claims`.execute(db);
  return rows.map((row) => ({
    objectKey: row.object_key,
    uploadId: row.upload_id,
    reason: row.reason,
    claims: row.claims,
  }));
}

/** The ledger's row of `key`, if any (tests and diagnostics). */
export async function ledgerRowOf(db: Db, key: string) {
  return db.selectFrom('object_ledger').selectAll().where('object_key', '=', key).executeTakeFirst();
}
