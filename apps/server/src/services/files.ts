// The files rules (docs/protocol.md#photos): upload URLs, the file made of two uploaded objects, signed
// downloads, magic metadata, and the storage an account uses. An object key is handed out once, recorded
// in the object ledger (services/object-ledger.ts), and confirmed by the POST /files that uses it, inside
// the transaction that makes the file: a key that was not handed out to the caller, or was used already,
// makes no file. The same POST /files again answers the file its objects already belong to. Storage is
// counted (file + thumbnail bytes of the files not deleted for ever) under the owner's photos clock, in
// the transaction that writes (services/photo-clock.ts). The queries are db/files.ts's.
import {
  limits,
  type MagicMetadata,
  type MultipartUploadUrlResponse,
  type PhotoFile,
  type UploadUrlResponse,
} from '@ente/protocol';

import type { ObjectStore } from '../adapters/object-store/object-store.ts';
import * as collectionsDb from '../db/collections.ts';
import type { Db } from '../db/database.ts';
import * as filesDb from '../db/files.ts';
import { apiError, badRequest, plainError } from '../http/errors.ts';
import { MICROS_PER_SECOND } from '../lib/clock.ts';
import { fileToWire, magicMetadataOf, stampCollections } from './collections.ts';
import type { Context } from './context.ts';
import {
  confirmObjects,
  newObjectKey,
  recordPendingUpload,
  UNCONFIRMED_OBJECT_LIFETIME_MICROS,
} from './object-ledger.ts';
import { stampChange } from './photo-clock.ts';
import { lockCollectionsHolding } from './trash.ts';

/** An object key that was not handed out to the caller, or is another account's (museum: 400). */
const notYours = () => plainError(403);

/** Upload URLs stay valid a day less than the ledger keeps an unconfirmed object. */
const UPLOAD_URL_SECONDS = UNCONFIRMED_OBJECT_LIFETIME_MICROS / MICROS_PER_SECOND - 24 * 60 * 60;
/** A download URL only has to be valid when the request starts. */
const DOWNLOAD_URL_SECONDS = 60 * 60;

/** A signed PUT for one object of `contentLength` bytes with this MD5 (base64), after the quota check. */
export async function uploadUrl(
  ctx: Context,
  store: ObjectStore,
  userID: number,
  request: { contentLength: number; contentMD5: string },
): Promise<UploadUrlResponse> {
  await checkQuota(ctx.db, ctx, userID, request.contentLength);
  const objectKey = newObjectKey(userID);
  await recordPendingUpload(ctx, ctx.db, { userID, objectKey });
  const url = await store.presignPut(objectKey, {
    length: request.contentLength,
    md5: request.contentMD5,
    expiresInSeconds: UPLOAD_URL_SECONDS,
  });
  return { objectKey, url };
}

/** Signed part PUTs (one per MD5, `partLength` bytes each but the last) and the completion POST. */
export async function multipartUploadUrls(
  ctx: Context,
  store: ObjectStore,
  userID: number,
  request: { contentLength: number; partLength: number; partMd5s: readonly string[] },
): Promise<MultipartUploadUrlResponse> {
  const { contentLength, partLength, partMd5s } = request;
  if (contentLength > partLength && partLength < limits.minPartBytes) {
    throw badRequest('partLength must be at least 5 MiB when there is more than one part');
  }
  const parts = Math.ceil(contentLength / partLength);
  if (parts > limits.maxParts) throw badRequest(`a multipart upload has at most ${String(limits.maxParts)} parts`);
  if (partMd5s.length !== parts) {
    throw badRequest(`partMd5s has ${String(partMd5s.length)} entries for ${String(parts)} parts`);
  }
  await checkQuota(ctx.db, ctx, userID, contentLength);
  const objectKey = newObjectKey(userID);
  const uploadId = await store.createMultipartUpload(objectKey);
  await recordPendingUpload(ctx, ctx.db, { userID, objectKey, uploadId });
  const partURLs = await Promise.all(
    partMd5s.map((md5, index) =>
      store.presignPart(objectKey, uploadId, index + 1, {
        length: index === parts - 1 ? contentLength - partLength * (parts - 1) : partLength,
        md5,
        offset: partLength * index,
        expiresInSeconds: UPLOAD_URL_SECONDS,
      }),
    ),
  );
  const completeURL = await store.presignComplete(objectKey, uploadId, UPLOAD_URL_SECONDS);
  return { objectKey, partURLs, completeURL };
}

interface NewFile {
  collectionID: number;
  encryptedKey: string;
  keyDecryptionNonce: string;
  file: { objectKey: string; decryptionHeader: string; size?: number | undefined };
  thumbnail: { objectKey: string; decryptionHeader: string; size?: number | undefined };
  metadata: { encryptedData: string; decryptionHeader: string };
  magicMetadata?: MagicMetadata | undefined;
  pubMagicMetadata?: MagicMetadata | undefined;
}

/**
 * Makes a file of two objects the caller uploaded, in a collection the caller owns: both keys must be
 * the caller's, handed out to them and not used yet; both objects must exist, with the sizes declared
 * (a size of 0 or none is not checked). The same request again answers the file already made.
 */
export async function createFile(
  ctx: Context,
  store: ObjectStore,
  userID: number,
  app: string,
  body: NewFile,
): Promise<PhotoFile> {
  const prefix = `${String(userID)}/`;
  if (!body.file.objectKey.startsWith(prefix) || !body.thumbnail.objectKey.startsWith(prefix)) {
    throw notYours();
  }
  if (body.file.objectKey === body.thumbnail.objectKey) throw badRequest('file and thumbnail objects must differ');
  const existing = await existingFile(ctx, userID, body);
  if (existing) return existing;

  const collection = await collectionsDb.collectionOf(ctx.db, body.collectionID);
  if (!collection) throw plainError(404);
  if (Number(collection.owner_id) !== userID) throw plainError(403);
  if (collection.is_deleted) throw apiError(404, 'COLLECTION_DELETED', 'the collection is deleted');
  if (collection.app !== app) throw badRequest('the collection belongs to another app');

  const [fileObject, thumbnailObject] = await Promise.all([
    store.head(body.file.objectKey),
    store.head(body.thumbnail.objectKey),
  ]);
  if (!fileObject || !thumbnailObject) {
    throw apiError(503, 'OBJECT_SIZE_FETCH_FAILED', 'an object was not found in the store');
  }
  if (fileObject.size > limits.maxFileBytes) throw plainError(413);
  if (body.file.size && body.file.size !== fileObject.size) throw badRequest('mismatch in file size');
  if (body.thumbnail.size && body.thumbnail.size !== thumbnailObject.size) {
    throw badRequest('mismatch in thumbnail size');
  }

  const made = await ctx.db.transaction().execute(async (tx) => {
    const [locked] = await collectionsDb.lockCollections(tx, [body.collectionID]);
    if (!locked || locked.is_deleted) throw apiError(404, 'COLLECTION_DELETED', 'the collection is deleted');
    const time = await stampCollections(tx, [locked]);
    // Counted under the owner's clock, which every upload of theirs locks too.
    await checkQuota(tx, ctx, userID, fileObject.size + thumbnailObject.size);
    if (!(await confirmObjects(ctx, tx, userID, [body.file.objectKey, body.thumbnail.objectKey]))) return undefined;
    const fileID = await filesDb.insertFile(tx, {
      ownerID: userID,
      fileObjectKey: body.file.objectKey,
      fileDecryptionHeader: body.file.decryptionHeader,
      fileSize: fileObject.size,
      thumbnailObjectKey: body.thumbnail.objectKey,
      thumbnailDecryptionHeader: body.thumbnail.decryptionHeader,
      thumbnailSize: thumbnailObject.size,
      encryptedMetadata: body.metadata.encryptedData,
      metadataDecryptionHeader: body.metadata.decryptionHeader,
      magicMetadata: body.magicMetadata ? JSON.stringify(body.magicMetadata) : null,
      pubMagicMetadata: body.pubMagicMetadata ? JSON.stringify(body.pubMagicMetadata) : null,
      time,
    });
    await collectionsDb.upsertCollectionFiles(
      tx,
      { collectionID: body.collectionID, ownerID: userID },
      userID,
      [{ id: fileID, encryptedKey: body.encryptedKey, keyDecryptionNonce: body.keyDecryptionNonce }],
      time,
    );
    return fileID;
  });
  if (made !== undefined) return fileInCollection(ctx.db, body.collectionID, made);
  // The keys were not confirmable: a concurrent identical request may have just made the file.
  const raced = await existingFile(ctx, userID, body);
  if (raced) return raced;
  throw notYours();
}

/**
 * The file these objects already make, when it is the caller's and made of exactly them; 403 when a key is
 * another account's file's, 400 when the caller's own keys are paired otherwise.
 */
async function existingFile(ctx: Context, userID: number, body: NewFile): Promise<PhotoFile | undefined> {
  const [byFile, byThumbnail] = await Promise.all([
    filesDb.fileWithObjectKey(ctx.db, body.file.objectKey),
    filesDb.fileWithObjectKey(ctx.db, body.thumbnail.objectKey),
  ]);
  if (!byFile && !byThumbnail) return undefined;
  if ([byFile, byThumbnail].some((file) => file && Number(file.owner_id) !== userID)) throw notYours();
  const same =
    byFile !== undefined &&
    !byFile.is_deleted &&
    Number(byFile.owner_id) === userID &&
    byFile.file_object_key === body.file.objectKey &&
    byFile.thumbnail_object_key === body.thumbnail.objectKey;
  if (!same) throw badRequest('an object key is already used by another file');
  const fileID = Number(byFile.file_id);
  const row = await collectionsDb.collectionFileOf(ctx.db, body.collectionID, fileID);
  if (!row) throw badRequest('an object key is already used by a file of another collection');
  return fileToWire(row, { forOwner: true, objectKeys: true });
}

async function fileInCollection(db: Db, collectionID: number, fileID: number): Promise<PhotoFile> {
  const row = await collectionsDb.collectionFileOf(db, collectionID, fileID);
  if (!row) throw new Error(`file ${String(fileID)} vanished from collection ${String(collectionID)}`);
  return fileToWire(row, { forOwner: true, objectKeys: true });
}

/**
 * A signed GET of a file's object (`file`) or thumbnail, for a caller who owns the file or sees it in a
 * collection of theirs or shared with them; 404 otherwise.
 */
export async function fileObjectUrl(
  ctx: Context,
  store: ObjectStore,
  userID: number,
  fileID: number,
  kind: 'file' | 'thumbnail',
): Promise<string> {
  const objectKey = await filesDb.readableObjectKey(ctx.db, userID, fileID, kind);
  if (objectKey === undefined) throw plainError(404);
  return store.presignGet(objectKey, DOWNLOAD_URL_SECONDS);
}

/** Refuses (404, as a download does) a file the caller neither owns nor sees in a collection of theirs or shared with them. */
export async function assertFileReadable(ctx: Context, userID: number, fileID: number): Promise<void> {
  if ((await filesDb.readableObjectKey(ctx.db, userID, fileID, 'file')) === undefined) throw plainError(404);
}

/**
 * Replaces the magic metadata (private or public) of the caller's files: each `version` must be the one
 * stored (else 409, nothing written; museum also refuses a count that drops by more than 2), and the
 * stored version becomes one more. Every collection holding a file hands it out again in its diff.
 */
export async function updateMagicMetadata(
  ctx: Context,
  userID: number,
  list: readonly { id: number; magicMetadata: MagicMetadata }[],
  which: 'private' | 'public',
): Promise<void> {
  const column = which === 'private' ? 'magic_metadata' : 'pub_magic_metadata';
  const fileIDs = [...new Set(list.map((item) => item.id))];
  if (fileIDs.length !== list.length) throw badRequest('a file appears twice in metadataList');
  await ctx.db.transaction().execute(async (tx) => {
    const collections = await lockCollectionsHolding(tx, fileIDs, []);
    const files = await filesDb.lockFiles(tx, fileIDs);
    if (files.length !== fileIDs.length || files.some((file) => file.is_deleted)) throw plainError(404);
    if (files.some((file) => Number(file.owner_id) !== userID)) throw plainError(403);
    for (const item of list) {
      const stored = magicMetadataOf(files.find((file) => Number(file.file_id) === item.id)?.[column] ?? null);
      if (stored && (stored.version !== item.magicMetadata.version || stored.count - item.magicMetadata.count > 2)) {
        throw plainError(409);
      }
    }
    const time =
      collections.length > 0 ? await stampCollections(tx, collections, [userID]) : await stampChange(tx, [userID]);
    for (const item of list) {
      const next = { ...item.magicMetadata, version: item.magicMetadata.version + 1 };
      await filesDb.setMagicMetadata(tx, item.id, column, JSON.stringify(next), time);
    }
    await collectionsDb.touchCollectionFilesOf(tx, fileIDs, time);
  });
}

/** The bytes and the number of files the account keeps (GET /users/details/v2). */
export async function storageOf(ctx: Context, userID: number): Promise<{ usage: number; fileCount: number }> {
  const { bytes, files } = await filesDb.usageOf(ctx.db, userID);
  return { usage: bytes, fileCount: files };
}

/** The account's quota in bytes (PHOTOS_STORAGE_BYTES). */
export function storageQuotaOf(ctx: Context): number {
  return ctx.config.PHOTOS_STORAGE_BYTES;
}

/** 426, as museum answers, when `adding` bytes would take the account past its quota and the 50 MB grace. */
async function checkQuota(db: Db, ctx: Context, userID: number, adding: number): Promise<void> {
  const { bytes } = await filesDb.usageOf(db, userID);
  if (bytes + adding > storageQuotaOf(ctx) + limits.storageOverflowBytes) throw plainError(426);
}
