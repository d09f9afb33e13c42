// The collections queries (docs/protocol.md#photos): albums, their shares, and the collection_files rows
// that say which album holds which file under which key. Each takes the database or a transaction; the
// rules (who may do what, the locks, the times) are services/collections.ts's.
import { sql, type Selectable } from 'kysely';

import type { Db } from './database.ts';
import type { CollectionsTable, CollectionType, ShareRole } from './schema.ts';

export type CollectionRow = Selectable<CollectionsTable>;

export async function insertCollection(
  tx: Db,
  values: {
    ownerID: number;
    encryptedKey: string;
    keyDecryptionNonce: string;
    encryptedName: string;
    nameDecryptionNonce: string;
    type: CollectionType;
    app: string;
    magicMetadata: string | null;
    pubMagicMetadata: string | null;
    time: number;
  },
): Promise<CollectionRow> {
  return tx
    .insertInto('collections')
    .values({
      owner_id: values.ownerID,
      encrypted_key: values.encryptedKey,
      key_decryption_nonce: values.keyDecryptionNonce,
      encrypted_name: values.encryptedName,
      name_decryption_nonce: values.nameDecryptionNonce,
      type: values.type,
      app: values.app,
      magic_metadata: values.magicMetadata,
      pub_magic_metadata: values.pubMagicMetadata,
      created_at: values.time,
      updation_time: values.time,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The owner's collection of a type that exists once per app (favorites, uncategorized). */
export async function collectionOfType(db: Db, ownerID: number, type: CollectionType, app: string) {
  return db
    .selectFrom('collections')
    .selectAll()
    .where((eb) => eb.and({ owner_id: ownerID, type, app }))
    .executeTakeFirst();
}

export async function collectionOf(db: Db, collectionID: number) {
  return db.selectFrom('collections').selectAll().where('collection_id', '=', collectionID).executeTakeFirst();
}

/** Locks the collections (FOR UPDATE, in id order) and returns those that exist. */
export async function lockCollections(tx: Db, collectionIDs: readonly number[]): Promise<CollectionRow[]> {
  if (collectionIDs.length === 0) return [];
  return tx
    .selectFrom('collections')
    .selectAll()
    .where('collection_id', 'in', collectionIDs)
    .orderBy('collection_id')
    .forUpdate()
    .execute();
}

export async function updateCollection(
  tx: Db,
  collectionID: number,
  values: {
    encrypted_name?: string;
    name_decryption_nonce?: string;
    magic_metadata?: string;
    pub_magic_metadata?: string;
    is_deleted?: boolean;
    updation_time: number;
  },
): Promise<void> {
  await tx.updateTable('collections').set(values).where('collection_id', '=', collectionID).execute();
}

/** Sets a sharee's own magic metadata of a collection shared with them. */
export async function setShareMagicMetadata(
  tx: Db,
  share: { collectionID: number; toUserID: number },
  json: string,
  time: number,
): Promise<void> {
  await tx
    .updateTable('collection_shares')
    .set({ magic_metadata: json, updation_time: time })
    .where((eb) => eb.and({ collection_id: share.collectionID, to_user_id: share.toUserID }))
    .execute();
}

/** Moves the collections' time forward (every change to their files or shares does). */
export async function touchCollections(tx: Db, collectionIDs: readonly number[], time: number): Promise<void> {
  if (collectionIDs.length === 0) return;
  await tx
    .updateTable('collections')
    .set({ updation_time: time })
    .where('collection_id', 'in', collectionIDs)
    .execute();
}

/** The owner's collections of `app` changed after `sinceTime`, deleted ones included. */
export async function ownedCollectionsSince(db: Db, ownerID: number, sinceTime: number, app: string) {
  return db
    .selectFrom('collections')
    .innerJoin('users', 'users.user_id', 'collections.owner_id')
    .selectAll('collections')
    .select('users.email as owner_email')
    .where((eb) => eb.and([eb('owner_id', '=', ownerID), eb('app', '=', app), eb('updation_time', '>', sinceTime)]))
    .orderBy('updation_time')
    .execute();
}

/**
 * The collections of `app` shared with the user (or unshared since) changed after `sinceTime`, with the
 * share's key, role, metadata and state.
 */
export async function sharedCollectionsSince(db: Db, userID: number, sinceTime: number, app: string) {
  return db
    .selectFrom('collection_shares as s')
    .innerJoin('collections as c', 'c.collection_id', 's.collection_id')
    .innerJoin('users as owner', 'owner.user_id', 'c.owner_id')
    .selectAll('c')
    .select([
      'owner.email as owner_email',
      's.encrypted_key as share_key',
      's.role as share_role',
      's.magic_metadata as share_magic_metadata',
      's.is_deleted as share_deleted',
      's.shared_at',
    ])
    .where((eb) => eb.and({ 's.to_user_id': userID, 'c.app': app }))
    .where((eb) => eb.or([eb('c.updation_time', '>', sinceTime), eb('s.updation_time', '>', sinceTime)]))
    .orderBy('c.updation_time')
    .execute();
}

/** The live sharees of the collections, with their e-mail and role. */
export async function shareesOf(db: Db, collectionIDs: readonly number[]) {
  if (collectionIDs.length === 0) return [];
  return db
    .selectFrom('collection_shares as s')
    .innerJoin('users as u', 'u.user_id', 's.to_user_id')
    .select(['s.collection_id', 's.to_user_id', 'u.email', 's.role'])
    .where((eb) => eb.and([eb('s.collection_id', 'in', collectionIDs), eb('s.is_deleted', '=', false)]))
    .orderBy('s.collection_id')
    .orderBy('s.shared_at')
    .execute();
}

/** The user's live role in a collection shared with them, or undefined. */
export async function shareRoleOf(db: Db, collectionID: number, userID: number): Promise<ShareRole | undefined> {
  const row = await db
    .selectFrom('collection_shares')
    .select('role')
    .where((eb) => eb.and({ collection_id: collectionID, to_user_id: userID, is_deleted: false }))
    .executeTakeFirst();
  return row?.role;
}

/** Shares the collection with a user, again if it was unshared (then with a new shared_at). */
export async function upsertShare(
  tx: Db,
  share: { collectionID: number; fromUserID: number; toUserID: number; role: ShareRole; encryptedKey: string },
  time: number,
): Promise<void> {
  await tx
    .insertInto('collection_shares')
    .values({
      collection_id: share.collectionID,
      from_user_id: share.fromUserID,
      to_user_id: share.toUserID,
      role: share.role,
      encrypted_key: share.encryptedKey,
      shared_at: time,
      updation_time: time,
    })
    .onConflict((conflict) =>
      conflict.columns(['collection_id', 'to_user_id']).doUpdateSet({
        role: share.role,
        encrypted_key: share.encryptedKey,
        is_deleted: false,
        updation_time: time,
        shared_at: sql<string>`CASE WHEN collection_shares.is_deleted THEN ${time} ELSE collection_shares.shared_at END`,
      }),
    )
    .execute();
}

/** Ends the shares of a collection: one sharee's, or every one's. */
export async function markSharesDeleted(tx: Db, collectionID: number, time: number, toUserID?: number): Promise<void> {
  let query = tx
    .updateTable('collection_shares')
    .set({ is_deleted: true, updation_time: time })
    .where((eb) => eb.and({ collection_id: collectionID, is_deleted: false }));
  if (toUserID !== undefined) query = query.where('to_user_id', '=', toUserID);
  await query.execute();
}

/**
 * Puts files in a collection under the keys given; a file that was removed from it comes back (its
 * first key stays, as in museum: it boxes the same file key).
 */
export async function upsertCollectionFiles(
  tx: Db,
  collection: { collectionID: number; ownerID: number },
  fileOwnerID: number,
  files: readonly { id: number; encryptedKey: string; keyDecryptionNonce: string }[],
  time: number,
): Promise<void> {
  await tx
    .insertInto('collection_files')
    .values(
      files.map((file) => ({
        collection_id: collection.collectionID,
        file_id: file.id,
        encrypted_key: file.encryptedKey,
        key_decryption_nonce: file.keyDecryptionNonce,
        c_owner_id: collection.ownerID,
        f_owner_id: fileOwnerID,
        created_at: time,
        updation_time: time,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['collection_id', 'file_id']).doUpdateSet({
        is_deleted: false,
        updation_time: time,
        created_at: sql<string>`CASE WHEN collection_files.is_deleted THEN ${time} ELSE collection_files.created_at END`,
      }),
    )
    .execute();
}

/** Removes files from a collection (the rows stay, deleted, for the diff): these ids, those of one owner, or all. */
export async function markCollectionFilesDeleted(
  tx: Db,
  collectionID: number,
  which: { fileIDs: readonly number[] } | { fileOwnerID: number } | 'all',
  time: number,
): Promise<void> {
  let query = tx
    .updateTable('collection_files')
    .set({ is_deleted: true, updation_time: time })
    .where((eb) => eb.and({ collection_id: collectionID, is_deleted: false }));
  if (which !== 'all' && 'fileIDs' in which) {
    if (which.fileIDs.length === 0) return;
    query = query.where('file_id', 'in', which.fileIDs);
  } else if (which !== 'all') {
    query = query.where('f_owner_id', '=', which.fileOwnerID);
  }
  await query.execute();
}

/** Those of `fileIDs` that the collection holds (live), with their owners. */
export async function liveFilesIn(db: Db, collectionID: number, fileIDs: readonly number[]) {
  if (fileIDs.length === 0) return [];
  const rows = await db
    .selectFrom('collection_files')
    .select(['file_id', 'f_owner_id'])
    .where((eb) =>
      eb.and([eb('collection_id', '=', collectionID), eb('file_id', 'in', fileIDs), eb('is_deleted', '=', false)]),
    )
    .execute();
  return rows.map((row) => ({ fileID: Number(row.file_id), ownerID: Number(row.f_owner_id) }));
}

export async function countLiveFiles(db: Db, collectionID: number): Promise<number> {
  const row = await db
    .selectFrom('collection_files')
    .select(sql<string>`count(*)`.as('count'))
    .where((eb) => eb.and({ collection_id: collectionID, is_deleted: false }))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The collections that hold any of the files (live rows). */
export async function collectionsHolding(db: Db, fileIDs: readonly number[]): Promise<number[]> {
  if (fileIDs.length === 0) return [];
  const rows = await db
    .selectFrom('collection_files')
    .select('collection_id')
    .distinct()
    .where((eb) => eb.and([eb('file_id', 'in', fileIDs), eb('is_deleted', '=', false)]))
    .execute();
  return rows.map((row) => Number(row.collection_id));
}

/** Moves the live rows of these files forward, so every collection's diff hands them out again. */
export async function touchCollectionFilesOf(tx: Db, fileIDs: readonly number[], time: number): Promise<void> {
  if (fileIDs.length === 0) return;
  await tx
    .updateTable('collection_files')
    .set({ updation_time: time })
    .where((eb) => eb.and([eb('file_id', 'in', fileIDs), eb('is_deleted', '=', false)]))
    .execute();
}

export const diffColumns = [
  'cf.collection_id',
  'cf.file_id',
  'cf.encrypted_key',
  'cf.key_decryption_nonce',
  'cf.c_owner_id',
  'cf.is_deleted',
  'cf.created_at as added_at',
  'cf.updation_time',
  'f.owner_id',
  'f.file_object_key',
  'f.file_decryption_header',
  'f.file_size',
  'f.thumbnail_object_key',
  'f.thumbnail_decryption_header',
  'f.thumbnail_size',
  'f.encrypted_metadata',
  'f.metadata_decryption_header',
  'f.magic_metadata',
  'f.pub_magic_metadata',
  'f.is_deleted as file_deleted',
] as const;

export type CollectionFileRow = Awaited<ReturnType<typeof collectionFilesSince>>[number];

/** The collection's rows with their files. */
function collectionFilesWithFiles(db: Db, collectionID: number) {
  return db
    .selectFrom('collection_files as cf')
    .innerJoin('files as f', 'f.file_id', 'cf.file_id')
    .select(diffColumns)
    .where('cf.collection_id', '=', collectionID);
}

/** The collection's rows changed after `sinceTime`, oldest change first, at most `limit`, with their files. */
export async function collectionFilesSince(db: Db, collectionID: number, sinceTime: number, limit: number) {
  return collectionFilesWithFiles(db, collectionID)
    .where('cf.updation_time', '>', sinceTime)
    .orderBy('cf.updation_time')
    .orderBy('cf.file_id')
    .limit(limit)
    .execute();
}

/** The time of the collection's latest change to its files (null while it never held one). */
export async function latestFileChange(db: Db, collectionID: number): Promise<string | number | null> {
  const row = await db
    .selectFrom('collection_files')
    .select((eb) => eb.fn.max('updation_time').as('latest'))
    .where('collection_id', '=', collectionID)
    .executeTakeFirst();
  return row?.latest ?? null;
}

/** The collection's rows changed at exactly `time` (one change's whole group). */
export async function collectionFilesAt(db: Db, collectionID: number, time: number | string) {
  return collectionFilesWithFiles(db, collectionID)
    .where('cf.updation_time', '=', time)
    .orderBy('cf.file_id')
    .execute();
}

/** One file as a collection holds it (live or not). */
export async function collectionFileOf(db: Db, collectionID: number, fileID: number) {
  return collectionFilesWithFiles(db, collectionID).where('cf.file_id', '=', fileID).executeTakeFirst();
}
