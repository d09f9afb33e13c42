// The trash rules (docs/protocol.md#trash). Trashing a file takes it out of every collection that holds it
// (museum's rule: the owner's file leaves shared albums too) and records it in the trash under one of the
// caller's collections, whose key the trash diff hands out with it. Restoring (POST
// /collections/restore-files, services/collections.ts addFiles) brings it back into one collection;
// deleting for ever flags the file deleted (its bytes stop counting) and hands its two objects to the
// object ledger's sweep. Items left 30 days are deleted for ever by a periodic job each process runs.
//
// Every write takes its locks in one order, so that two of them never wait on each other in a cycle:
// collections (in id order), then files, then trash rows, then the photos clocks (services/photo-clock.ts)
// whose time each change is stamped with. The trash diff's cursor is the owner's updated_at, stamped under
// the owner's clock, so it grows in commit order like every collection diff. The queries are db/trash.ts's.
import { limits, type TrashDiffResponse, type TrashEntry } from '@ente/protocol';

import * as collectionsDb from '../db/collections.ts';
import type { Db } from '../db/database.ts';
import { lockFiles } from '../db/files.ts';
import * as trashDb from '../db/trash.ts';
import { apiError, badRequest, plainError } from '../http/errors.ts';
import { MICROS_PER_DAY, MICROS_PER_MINUTE } from '../lib/clock.ts';
import { fileToWire, stampCollections } from './collections.ts';
import type { Context } from './context.ts';
import { scheduleDeletion } from './object-ledger.ts';
import { stampChange } from './photo-clock.ts';

/** How long a file stays in the trash before it is deleted for ever (museum's TrashDurationInDays). */
export const TRASH_LIFETIME_MICROS = limits.trashDays * MICROS_PER_DAY;
/** Files deleted for ever in one transaction (empty trash and the expiry go batch by batch). */
const DELETE_BATCH = 1000;
/** Batches one expiry run takes at most (the next run goes on). */
const EXPIRY_MAX_BATCHES = 20;

/**
 * Moves the caller's files to the trash. Each item names a file of the caller and a collection of theirs
 * that has held it; the file leaves every collection. Unknown ids → 404, another account's → 403, and
 * nothing changes.
 */
export async function trashFiles(
  ctx: Context,
  userID: number,
  items: readonly { fileID: number; collectionID: number }[],
): Promise<void> {
  const fileIDs = items.map((item) => item.fileID);
  if (new Set(fileIDs).size !== fileIDs.length) throw badRequest('a file appears twice in items');
  const named = [...new Set(items.map((item) => item.collectionID))];
  // Another account's file is refused before anything of theirs is locked (and again under the locks).
  if ((await trashDb.ownersOfAny(ctx.db, fileIDs)).some((owner) => owner !== userID)) throw plainError(403);
  await ctx.db.transaction().execute(async (tx) => {
    const collections = await lockCollectionsHolding(tx, fileIDs, named);
    for (const collectionID of named) {
      const collection = collections.find((row) => Number(row.collection_id) === collectionID);
      if (!collection) throw plainError(404);
      if (Number(collection.owner_id) !== userID) throw plainError(403);
    }
    const files = await lockFiles(tx, fileIDs);
    if (files.some((file) => Number(file.owner_id) !== userID)) throw plainError(403);
    if (files.length !== fileIDs.length || files.some((file) => file.is_deleted)) throw plainError(404);
    if ((await trashDb.pairsInCollections(tx, items)).length !== items.length) {
      throw apiError(404, 'FILE_NOT_FOUND_IN_ALBUM', 'a file was never in the collection named with it');
    }
    await trashDb.lockRowsOfFiles(tx, 'trash', fileIDs);
    const time = await stampCollections(tx, collections, [userID]);
    await trashDb.removeFromEveryCollection(tx, fileIDs, time);
    await trashDb.upsertTrash(tx, userID, items, {
      now: time,
      deleteBy: ctx.clock.nowMicros() + TRASH_LIFETIME_MICROS,
    });
  });
}

/**
 * DELETE /collections/v3/:id without keepFiles (services/collections.ts deleteCollection), first thing in its
 * transaction: the owner's files in the collection go to the trash under it, as museum's v3 does (the files
 * others added just leave it). Locks the collection with every collection holding those files, the files
 * and their trash rows, in the trash's order; the caller checks the collection, stamps the change for
 * `collections`, then calls `apply` with its time.
 */
export async function lockCollectionTrash(ctx: Context, tx: Db, collectionID: number, userID: number) {
  // Someone else's collection: nothing of theirs is locked (the caller refuses it).
  const row = await collectionsDb.collectionOf(tx, collectionID);
  if (!row || Number(row.owner_id) !== userID) return { collections: [], apply: () => Promise.resolve() };
  let fileIDs = await trashDb.ownerFilesIn(tx, collectionID);
  let collections = await lockCollectionsHolding(tx, fileIDs, [collectionID]);
  // Files the owner added before the lock was taken are in now: their collections are locked too.
  const added = (await trashDb.ownerFilesIn(tx, collectionID)).filter((id) => !fileIDs.includes(id));
  if (added.length > 0) {
    fileIDs = [...fileIDs, ...added];
    collections = await lockCollectionsHolding(tx, fileIDs, [collectionID]);
  }
  await lockFiles(tx, fileIDs);
  await trashDb.lockRowsOfFiles(tx, 'trash', fileIDs);
  return {
    collections,
    apply: async (time: number) => {
      if (fileIDs.length === 0) return;
      await trashDb.removeFromEveryCollection(tx, fileIDs, time);
      const items = fileIDs.map((fileID) => ({ fileID, collectionID }));
      await trashDb.upsertTrash(tx, userID, items, {
        now: time,
        deleteBy: ctx.clock.nowMicros() + TRASH_LIFETIME_MICROS,
      });
    },
  };
}

/**
 * Locks the collections named and every collection holding one of the files, looking again once locked: a
 * collection that took a file meanwhile is locked too (it must see the file leave, at the change's time).
 */
export async function lockCollectionsHolding(tx: Db, fileIDs: readonly number[], named: readonly number[]) {
  let ids = [...new Set([...named, ...(await collectionsDb.collectionsHolding(tx, fileIDs))])];
  let locked = await collectionsDb.lockCollections(tx, ids);
  const later = (await collectionsDb.collectionsHolding(tx, fileIDs)).filter((id) => !ids.includes(id));
  if (later.length > 0) {
    ids = [...ids, ...later];
    locked = await collectionsDb.lockCollections(tx, ids);
  }
  return locked;
}

/**
 * Restoring, first half (inside addFiles' transaction, after the collection's lock and before the time is
 * stamped): every file must be in the caller's trash, else 400 as museum answers; their rows stay locked.
 */
export async function lockForRestore(tx: Db, userID: number, fileIDs: readonly number[]): Promise<void> {
  const unique = [...new Set(fileIDs)];
  const trashed = await trashDb.lockTrashed(tx, userID, unique);
  if (trashed.length !== unique.length) throw badRequest('some fileIDs are not restorable');
}

/** Restoring, second half: the trash rows say restored, at the change's time. */
export async function markRestored(tx: Db, fileIDs: readonly number[], time: number): Promise<void> {
  await trashDb.markRestored(tx, [...new Set(fileIDs)], time);
}

/**
 * For adding or moving files (inside that transaction, before the time is stamped): a file in the trash or
 * deleted for ever must be restored first (409 FILE_IN_TRASH, museum's). The files stay locked against
 * trashing until the transaction ends.
 */
export async function refuseTrashed(tx: Db, fileIDs: readonly number[]): Promise<void> {
  const unique = [...new Set(fileIDs)];
  await trashDb.lockRowsOfFiles(tx, 'files', unique);
  if ((await trashDb.trashedAmong(tx, unique)).length > 0) {
    throw apiError(
      409,
      'FILE_IN_TRASH',
      'One or more files are in trash or have been deleted, please restore them first',
    );
  }
}

/** Keeps the last rows of a page whose time differs from the first row left out, so a change never splits. */
export async function pageWithoutSplitting<Row extends { updation_time: unknown }>(
  rows: Row[],
  size: number,
  timeOf: (row: Row) => string,
  wholeGroupAt: (time: string) => Promise<Row[]>,
): Promise<{ rows: Row[]; hasMore: boolean }> {
  const first = rows[size];
  if (first === undefined) return { rows, hasMore: false };
  const cut = timeOf(first);
  const kept = rows.slice(0, size).filter((row) => timeOf(row) !== cut);
  return { rows: kept.length > 0 ? kept : await wholeGroupAt(cut), hasMore: true };
}

/** The caller's trash entries of `app` changed after `sinceTime`: 2,500 a page, never splitting one change. */
export async function trashDiff(
  ctx: Context,
  userID: number,
  app: string,
  sinceTime: number,
): Promise<TrashDiffResponse> {
  const size = limits.trashDiffPage;
  const { rows, hasMore } = await pageWithoutSplitting(
    await trashDb.trashSince(ctx.db, userID, app, sinceTime, size + 1),
    size,
    (row) => String(row.updated_at),
    (time) => trashDb.trashAt(ctx.db, userID, app, time),
  );
  return { diff: rows.map(trashEntryToWire), hasMore };
}

function trashEntryToWire(row: trashDb.TrashRow): TrashEntry {
  const file = { ...fileToWire(row, { forOwner: true }), isDeleted: false };
  if (row.trash_deleted) {
    // A file deleted for ever is only named: its metadata is of no more use to anyone.
    delete file.magicMetadata;
    delete file.pubMagicMetadata;
    delete file.info;
    file.metadata = { decryptionHeader: '', size: 0 };
  }
  return {
    file,
    isDeleted: row.trash_deleted,
    isRestored: row.is_restored,
    deleteBy: Number(row.delete_by),
    createdAt: Number(row.trashed_at),
    updatedAt: Number(row.updated_at),
  };
}

/**
 * POST /trash/delete: every id must be a file of the caller's (another account's 403, unknown 404, where
 * museum skips them); the caller's files that are not in the trash are skipped, as in museum.
 */
export async function deleteFromTrash(ctx: Context, userID: number, fileIDs: readonly number[]): Promise<void> {
  const unique = [...new Set(fileIDs)];
  const owners = await trashDb.ownersOfAny(ctx.db, unique);
  if (owners.some((owner) => owner !== userID)) throw plainError(403);
  if (owners.length !== unique.length) throw plainError(404);
  await deleteForEver(ctx, userID, unique);
}

/**
 * Deletes for ever those of `fileIDs` that are in the caller's trash (others are skipped); with `dueBy`, only
 * those whose time in the trash ends by then. Returns how many went.
 */
export async function deleteForEver(
  ctx: Context,
  userID: number,
  fileIDs: readonly number[],
  options: { dueBy?: number } = {},
): Promise<number> {
  const candidates = await trashDb.trashedAmong(ctx.db, [...new Set(fileIDs)]);
  if (candidates.length === 0) return 0;
  return ctx.db.transaction().execute(async (tx) => {
    const files = await lockFiles(tx, candidates);
    const trashed = await trashDb.lockTrashed(tx, userID, candidates);
    const due = new Set(
      trashed
        .filter((row) => options.dueBy === undefined || Number(row.delete_by) <= options.dueBy)
        .map((row) => Number(row.file_id)),
    );
    const going = files.filter(
      (file) => due.has(Number(file.file_id)) && Number(file.owner_id) === userID && !file.is_deleted,
    );
    if (going.length === 0) return 0;
    const ids = going.map((file) => Number(file.file_id));
    const time = await stampChange(tx, [userID]);
    await trashDb.markDeletedForEver(tx, ids, time);
    await scheduleDeletion(
      ctx,
      tx,
      going.flatMap((file) => [file.file_object_key, file.thumbnail_object_key]),
    );
    return going.length;
  });
}

/** Deletes for ever everything of `app` in the caller's trash whose updatedAt is at or before `lastUpdatedAt`. */
export async function emptyTrash(ctx: Context, userID: number, app: string, lastUpdatedAt: number): Promise<void> {
  for (;;) {
    const fileIDs = await trashDb.trashedUntil(ctx.db, userID, app, lastUpdatedAt, DELETE_BATCH);
    if (fileIDs.length === 0) return;
    // Nothing deleted means another request is deleting them: its answer covers them.
    if ((await deleteForEver(ctx, userID, fileIDs)) === 0) return;
  }
}

/**
 * Deletes for ever what has been in the trash for its 30 days. Several processes may run it at once: each
 * deletion re-checks the rows under their locks, so a file is deleted (and its objects scheduled) once.
 */
export async function expireTrash(ctx: Context): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < EXPIRY_MAX_BATCHES; batch++) {
    const now = ctx.clock.nowMicros();
    const due = await trashDb.dueTrash(ctx.db, now, DELETE_BATCH);
    if (due.length === 0) break;
    const byUser = new Map<number, number[]>();
    for (const row of due) byUser.set(row.userID, [...(byUser.get(row.userID) ?? []), row.fileID]);
    let deleted = 0;
    for (const [userID, fileIDs] of byUser) deleted += await deleteForEver(ctx, userID, fileIDs, { dueBy: now });
    total += deleted;
    if (deleted === 0) break;
  }
  return total;
}

/** Runs `expireTrash` every `intervalMs` (unref'd); returns a stop function. */
export function scheduleTrashExpiry(ctx: Context, intervalMs = (10 * MICROS_PER_MINUTE) / 1000): () => void {
  const timer = setInterval(() => {
    expireTrash(ctx).catch((error: unknown) => ctx.log.warn({ err: error }, 'trash expiry failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
