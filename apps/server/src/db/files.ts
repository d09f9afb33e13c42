// The files queries (docs/protocol.md#photos): one row per uploaded file with its two objects, its
// encrypted metadata and magic metadata. Each takes the database or a transaction; the rules (objects
// checked, the quota, versions) are services/files.ts's.
import { sql } from 'kysely';

import type { Db } from './database.ts';

export async function insertFile(
  tx: Db,
  file: {
    ownerID: number;
    fileObjectKey: string;
    fileDecryptionHeader: string;
    fileSize: number;
    thumbnailObjectKey: string;
    thumbnailDecryptionHeader: string;
    thumbnailSize: number;
    encryptedMetadata: string;
    metadataDecryptionHeader: string;
    magicMetadata: string | null;
    pubMagicMetadata: string | null;
    time: number;
  },
): Promise<number> {
  const row = await tx
    .insertInto('files')
    .values({
      owner_id: file.ownerID,
      file_object_key: file.fileObjectKey,
      file_decryption_header: file.fileDecryptionHeader,
      file_size: file.fileSize,
      thumbnail_object_key: file.thumbnailObjectKey,
      thumbnail_decryption_header: file.thumbnailDecryptionHeader,
      thumbnail_size: file.thumbnailSize,
      encrypted_metadata: file.encryptedMetadata,
      metadata_decryption_header: file.metadataDecryptionHeader,
      magic_metadata: file.magicMetadata,
      pub_magic_metadata: file.pubMagicMetadata,
      created_at: file.time,
      updation_time: file.time,
    })
    .returning('file_id')
    .executeTakeFirstOrThrow();
  return Number(row.file_id);
}

/** The file that uses this object key, as its file or its thumbnail. */
export async function fileWithObjectKey(db: Db, objectKey: string) {
  return db
    .selectFrom('files')
    .select(['file_id', 'owner_id', 'file_object_key', 'thumbnail_object_key', 'is_deleted'])
    .where((eb) => eb.or([eb('file_object_key', '=', objectKey), eb('thumbnail_object_key', '=', objectKey)]))
    .executeTakeFirst();
}

/** The owners of those of `fileIDs` that exist and are not deleted for ever. */
export async function ownersOf(db: Db, fileIDs: readonly number[]) {
  if (fileIDs.length === 0) return [];
  const rows = await db
    .selectFrom('files')
    .select(['file_id', 'owner_id'])
    .where((eb) => eb.and([eb('file_id', 'in', fileIDs), eb('is_deleted', '=', false)]))
    .execute();
  return rows.map((row) => ({ fileID: Number(row.file_id), ownerID: Number(row.owner_id) }));
}

/** Locks the files (FOR NO KEY UPDATE, in id order: inserts that refer to them are not held up). */
export async function lockFiles(tx: Db, fileIDs: readonly number[]) {
  if (fileIDs.length === 0) return [];
  return tx
    .selectFrom('files')
    .select([
      'file_id',
      'owner_id',
      'magic_metadata',
      'pub_magic_metadata',
      'is_deleted',
      'file_object_key',
      'thumbnail_object_key',
    ])
    .where('file_id', 'in', fileIDs)
    .orderBy('file_id')
    .forNoKeyUpdate()
    .execute();
}

export async function setMagicMetadata(
  tx: Db,
  fileID: number,
  column: 'magic_metadata' | 'pub_magic_metadata',
  json: string,
  time: number,
): Promise<void> {
  await tx
    .updateTable('files')
    .set({ [column]: json, updation_time: time })
    .where('file_id', '=', fileID)
    .execute();
}

/**
 * The object key of a file that `userID` may read: their own (not deleted for ever), or one a live
 * collection holds that is theirs or shared with them.
 */
export async function readableObjectKey(db: Db, userID: number, fileID: number, kind: 'file' | 'thumbnail') {
  const column = kind === 'file' ? 'f.file_object_key' : 'f.thumbnail_object_key';
  const row = await db
    .selectFrom('files as f')
    .select(`${column} as object_key`)
    .where((eb) => eb.and({ 'f.file_id': fileID, 'f.is_deleted': false }))
    .where((eb) =>
      eb.or([
        eb('f.owner_id', '=', userID),
        eb.exists(
          eb
            .selectFrom('collection_files as cf')
            .innerJoin('collections as c', 'c.collection_id', 'cf.collection_id')
            .leftJoin('collection_shares as s', (join) =>
              join
                .onRef('s.collection_id', '=', 'c.collection_id')
                .on('s.to_user_id', '=', userID)
                .on('s.is_deleted', '=', false),
            )
            .select(sql`1`.as('one'))
            .whereRef('cf.file_id', '=', 'f.file_id')
            .where((eb) => eb.and({ 'cf.is_deleted': false, 'c.is_deleted': false }))
            .where((inner) => inner.or([inner('c.owner_id', '=', userID), inner('s.to_user_id', 'is not', null)])),
        ),
      ]),
    )
    .executeTakeFirst();
  return row?.object_key;
}

/** The bytes (both objects) and the number of the user's files not deleted for ever. */
export async function usageOf(db: Db, ownerID: number): Promise<{ bytes: number; files: number }> {
  const row = await db
    .selectFrom('files')
    .select([sql<string>`coalesce(sum(file_size + thumbnail_size), 0)`.as('bytes'), sql<string>`count(*)`.as('files')])
    .where((eb) => eb.and({ owner_id: ownerID, is_deleted: false }))
    .executeTakeFirstOrThrow();
  return { bytes: Number(row.bytes), files: Number(row.files) };
}
