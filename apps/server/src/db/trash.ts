// The trash queries (docs/protocol.md#trash): one row per trashed file, naming the collection whose key the
// trash diff hands out with it. Each takes the database or a transaction; the rules (who may trash, the
// lock order, the times) are services/trash.ts's.
import { diffColumns } from './collections.ts';
import type { Db } from './database.ts';

/** The caller's trash rows of these files that are still in the trash (neither restored nor deleted), locked. */
export async function lockTrashed(tx: Db, userID: number, fileIDs: readonly number[]) {
  if (fileIDs.length === 0) return [];
  return tx
    .selectFrom('trash')
    .select(['file_id', 'delete_by'])
    .where('file_id', 'in', fileIDs)
    .where((eb) => eb.and({ user_id: userID, is_deleted: false, is_restored: false }))
    .orderBy('file_id')
    .forUpdate()
    .execute();
}

/**
 * Locks rows of `table` by file id, in id order: trash rows FOR UPDATE (a file trashed again rewrites its
 * row), files FOR SHARE (none of them is trashed or deleted until the transaction ends).
 */
export async function lockRowsOfFiles(tx: Db, table: 'trash' | 'files', fileIDs: readonly number[]): Promise<void> {
  if (fileIDs.length === 0) return;
  const query = tx.selectFrom(table).select('file_id').where('file_id', 'in', fileIDs).orderBy('file_id');
  await (table === 'trash' ? query.forUpdate() : query.forShare()).execute();
}

/** Puts files in the trash (again, if they were restored), each under the collection given. */
export async function upsertTrash(
  tx: Db,
  userID: number,
  items: readonly { fileID: number; collectionID: number }[],
  times: { now: number; deleteBy: number },
): Promise<void> {
  const stamps = { delete_by: times.deleteBy, created_at: times.now, updated_at: times.now };
  await tx
    .insertInto('trash')
    .values(
      items.map((item) => ({ file_id: item.fileID, collection_id: item.collectionID, user_id: userID, ...stamps })),
    )
    .onConflict((conflict) =>
      conflict
        .column('file_id')
        .doUpdateSet((eb) => ({
          collection_id: eb.ref('excluded.collection_id'),
          is_restored: false,
          ...stamps,
        }))
        .where('trash.is_deleted', '=', false),
    )
    .execute();
}

/** The trash rows say restored, at `time`. */
export async function markRestored(tx: Db, fileIDs: readonly number[], time: number): Promise<void> {
  if (fileIDs.length === 0) return;
  await tx.updateTable('trash').set({ is_restored: true, updated_at: time }).where('file_id', 'in', fileIDs).execute();
}

/** Files deleted for ever at `time`: their trash rows say so, and their bytes stop counting towards storage. */
export async function markDeletedForEver(tx: Db, fileIDs: readonly number[], time: number): Promise<void> {
  if (fileIDs.length === 0) return;
  await tx.updateTable('trash').set({ is_deleted: true, updated_at: time }).where('file_id', 'in', fileIDs).execute();
  await tx
    .updateTable('files')
    .set({ is_deleted: true, updation_time: time })
    .where('file_id', 'in', fileIDs)
    .execute();
}

/** Every collection_files row of these files leaves (deleted, with the new time), in whosever collection. */
export async function removeFromEveryCollection(tx: Db, fileIDs: readonly number[], time: number): Promise<void> {
  if (fileIDs.length === 0) return;
  await tx
    .updateTable('collection_files')
    .set({ is_deleted: true, updation_time: time })
    .where((eb) => eb.and([eb('file_id', 'in', fileIDs), eb('is_deleted', '=', false)]))
    .execute();
}

/** The files of the collection's owner that the collection holds (live). */
export async function ownerFilesIn(db: Db, collectionID: number): Promise<number[]> {
  const rows = await db
    .selectFrom('collection_files')
    .select('file_id')
    .where((eb) =>
      eb.and([
        eb('collection_id', '=', collectionID),
        eb('is_deleted', '=', false),
        eb('f_owner_id', '=', eb.ref('c_owner_id')),
      ]),
    )
    .orderBy('file_id')
    .execute();
  return rows.map((row) => Number(row.file_id));
}

/** Which of these (file, collection) pairs have a collection_files row (live or not). */
export async function pairsInCollections(db: Db, pairs: readonly { fileID: number; collectionID: number }[]) {
  if (pairs.length === 0) return [];
  const rows = await db
    .selectFrom('collection_files')
    .select(['file_id', 'collection_id'])
    .where((eb) => eb.or(pairs.map((pair) => eb.and({ file_id: pair.fileID, collection_id: pair.collectionID }))))
    .execute();
  return rows.map((row) => ({ fileID: Number(row.file_id), collectionID: Number(row.collection_id) }));
}

/** The owners of those of `fileIDs` that exist (deleted for ever or not), one per file. */
export async function ownersOfAny(db: Db, fileIDs: readonly number[]): Promise<number[]> {
  if (fileIDs.length === 0) return [];
  const rows = await db.selectFrom('files').select('owner_id').where('file_id', 'in', fileIDs).execute();
  return rows.map((row) => Number(row.owner_id));
}

/** Those of `fileIDs` that are in the trash (not restored; deleted for ever counts too). */
export async function trashedAmong(db: Db, fileIDs: readonly number[]): Promise<number[]> {
  if (fileIDs.length === 0) return [];
  const rows = await db
    .selectFrom('trash')
    .select('file_id')
    .where((eb) => eb.and([eb('file_id', 'in', fileIDs), eb('is_restored', '=', false)]))
    .execute();
  return rows.map((row) => Number(row.file_id));
}

/** The user's trash rows of `app` with their files and keys, by `updated_at` (after `since`, or exactly `at`). */
function trashWithFiles(db: Db, userID: number, app: string) {
  return db
    .selectFrom('trash as t')
    .innerJoin('collection_files as cf', (join) =>
      join.onRef('cf.file_id', '=', 't.file_id').onRef('cf.collection_id', '=', 't.collection_id'),
    )
    .innerJoin('files as f', 'f.file_id', 't.file_id')
    .innerJoin('collections as c', 'c.collection_id', 't.collection_id')
    .select(diffColumns)
    .select([
      't.is_deleted as trash_deleted',
      't.is_restored',
      't.delete_by',
      't.created_at as trashed_at',
      't.updated_at',
    ])
    .where((eb) => eb.and({ 't.user_id': userID, 'c.app': app }));
}

export type TrashRow = Awaited<ReturnType<typeof trashSince>>[number];

export async function trashSince(db: Db, userID: number, app: string, since: number, limit: number) {
  return trashWithFiles(db, userID, app)
    .where('t.updated_at', '>', since)
    .orderBy('t.updated_at')
    .orderBy('t.file_id')
    .limit(limit)
    .execute();
}

export async function trashAt(db: Db, userID: number, app: string, at: number | string) {
  return trashWithFiles(db, userID, app).where('t.updated_at', '=', at).orderBy('t.file_id').execute();
}

/** Up to `limit` files of the user (of `app`) in the trash whose updated_at is at or before `until`. */
export async function trashedUntil(db: Db, userID: number, app: string, until: number, limit: number) {
  const rows = await db
    .selectFrom('trash as t')
    .innerJoin('collections as c', 'c.collection_id', 't.collection_id')
    .select('t.file_id')
    .where('t.updated_at', '<=', until)
    .where((eb) => eb.and({ 't.user_id': userID, 'c.app': app, 't.is_deleted': false, 't.is_restored': false }))
    .orderBy('t.file_id')
    .limit(limit)
    .execute();
  return rows.map((row) => Number(row.file_id));
}

/** Up to `limit` trash rows due by `now` (not restored, not deleted), with their users. */
export async function dueTrash(db: Db, now: number, limit: number) {
  const rows = await db
    .selectFrom('trash')
    .select(['user_id', 'file_id'])
    .where('delete_by', '<=', now)
    .where((eb) => eb.and({ is_deleted: false, is_restored: false }))
    .orderBy('delete_by')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ userID: Number(row.user_id), fileID: Number(row.file_id) }));
}
