// The photos' object ledger: which store objects must be removed unless confirmed, and the sweep that
// removes them. An object enters it when its upload URL is handed out and leaves it when POST /files
// confirms it; a file deleted for ever puts its objects back in, due at once. The sweep (every process
// runs it) claims due rows under a lease, removes their objects from the store, then their rows; a crash
// in between leaves the row to be claimed again once the lease has passed, and removing an object that
// is already gone is not an error. docs/decisions.md#photos-object-storage.
//
// API (every function takes the Context, then the database or the caller's transaction where it writes):
//   newObjectKey(userID) → "<userID>/<uuid>"
//   recordPendingUpload(ctx, db, { userID, objectKey, uploadId? })  when an upload URL is handed out
//   confirmObjects(ctx, tx, userID, objectKeys) → boolean           inside POST /files' transaction
//   scheduleDeletion(ctx, tx, objectKeys)                          a file deleted for ever
//   sweepObjects(ctx, store) / scheduleObjectSweep(ctx, store)     the sweep, once or on a timer
import { randomUUID } from 'node:crypto';

import type { ObjectStore } from '../adapters/object-store/object-store.ts';
import type { Db } from '../db/database.ts';
import {
  claimDueObjects,
  deleteLedgerRows,
  insertUnconfirmedObject,
  lockConfirmableObjects,
  upsertDeletions,
} from '../db/object-ledger.ts';
import { MICROS_PER_DAY, MICROS_PER_MINUTE } from '../lib/clock.ts';
import type { Context } from './context.ts';

/**
 * How long an unconfirmed object is kept: an upload URL must not be valid for longer (museum's URLs
 * live 7 days). Past it the object can no longer be confirmed, even if the sweep has not run yet.
 */
export const UNCONFIRMED_OBJECT_LIFETIME_MICROS = 7 * MICROS_PER_DAY;
/** How long a sweep owns the rows it claimed; a process that died holding them frees them this late. */
export const SWEEP_LEASE_MICROS = 10 * MICROS_PER_MINUTE;
/** Rows claimed at once, and objects removed at once within them. */
const SWEEP_BATCH = 100;
const SWEEP_PARALLEL = 8;
/** Batches per run at most, so that one run ends (the next one goes on). */
const SWEEP_MAX_BATCHES = 50;

/** A fresh key for an object of `userID`: "<userID>/<uuid>", as museum names them. */
export function newObjectKey(userID: number): string {
  return `${String(userID)}/${randomUUID()}`;
}

/** Notes an object whose upload URL is being handed out: swept unless confirmed within the lifetime. */
export async function recordPendingUpload(
  ctx: Context,
  db: Db,
  upload: { userID: number; objectKey: string; uploadId?: string },
): Promise<void> {
  const now = ctx.clock.nowMicros();
  await insertUnconfirmedObject(db, {
    objectKey: upload.objectKey,
    userID: upload.userID,
    uploadId: upload.uploadId ?? null,
    sweepAfter: now + UNCONFIRMED_OBJECT_LIFETIME_MICROS,
    now,
  });
}

/**
 * Confirms objects a new file refers to: true when every key is an unconfirmed object of `userID`, not
 * yet due and not claimed by a sweep; their rows are then removed (the object is the file's). False
 * otherwise, and nothing changes. Call it inside the transaction that creates the file: its rows stay
 * locked until that commits, so a sweep skips them and a second confirmation of the same keys is false.
 */
export async function confirmObjects(
  ctx: Context,
  tx: Db,
  userID: number,
  objectKeys: readonly string[],
): Promise<boolean> {
  const keys = [...new Set(objectKeys)];
  if (keys.length === 0) return false;
  const locked = await lockConfirmableObjects(tx, userID, keys, ctx.clock.nowMicros());
  if (locked.length !== keys.length) return false;
  await deleteLedgerRows(tx, keys);
  return true;
}

/** A file deleted for ever: its objects are removed by the next sweep. */
export async function scheduleDeletion(ctx: Context, tx: Db, objectKeys: readonly string[]): Promise<void> {
  const now = ctx.clock.nowMicros();
  await upsertDeletions(tx, [...new Set(objectKeys)], now, now);
}

export interface SweepResult {
  /** Rows whose objects were removed (and the rows with them). */
  removed: string[];
  /** Rows whose removal failed: they stay, due again when their lease passes. */
  failed: string[];
}

/** Removes the objects of every due row (a multipart upload is aborted too), then the rows. */
export async function sweepObjects(ctx: Context, store: ObjectStore): Promise<SweepResult> {
  const result: SweepResult = { removed: [], failed: [] };
  for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch++) {
    const now = ctx.clock.nowMicros();
    const rows = await claimDueObjects(ctx.db, now, now + SWEEP_LEASE_MICROS, SWEEP_BATCH);
    const removed: string[] = [];
    for (let i = 0; i < rows.length; i += SWEEP_PARALLEL) {
      await Promise.all(
        rows.slice(i, i + SWEEP_PARALLEL).map(async (row) => {
          try {
            if (row.uploadId !== null) await store.abortMultipartUpload(row.objectKey, row.uploadId);
            await store.delete(row.objectKey);
            removed.push(row.objectKey);
          } catch (error) {
            result.failed.push(row.objectKey);
            ctx.log.warn({ err: error, objectKey: row.objectKey, claims: row.claims }, 'object sweep: removal failed');
          }
        }),
      );
    }
    await deleteLedgerRows(ctx.db, removed);
    result.removed.push(...removed);
    if (rows.length < SWEEP_BATCH) break;
  }
  return result;
}

/**
 * Runs `sweepObjects` every `intervalMs` (never two runs at once in this process; other processes' runs
 * claim other rows). Returns a stop function that waits for a run in progress.
 */
export function scheduleObjectSweep(ctx: Context, store: ObjectStore, intervalMs = 60_000): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepObjects(ctx, store)
      .then(
        () => undefined,
        (error: unknown) => ctx.log.warn({ err: error }, 'object sweep failed'),
      )
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
