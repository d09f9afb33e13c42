// Photos rows for tests that are about what happens to files afterwards (trash, public links): accounts
// with key attributes, albums made through the collections service, and files written straight into the
// tables under a stamped time, as POST /files would leave them (their objects are never uploaded: tests
// that need bytes upload them through the store themselves).
import type { CollectionDiffResponse } from '@ente/protocol';

import * as collectionsDb from '../db/collections.ts';
import { insertFile } from '../db/files.ts';
import { collectionDiffJson, createCollection, stampCollections } from '../services/collections.ts';
import type { Context } from '../services/context.ts';
import { newObjectKey } from '../services/object-ledger.ts';
import { linkDiffJson, type LinkAccess } from '../services/public-links.ts';
import { insertUserWithKeyAttributes } from './context.ts';

const filler = (bytes: number, value: number) => Buffer.alloc(bytes, value).toString('base64');
let serial = 0;

export interface FixtureUser {
  id: number;
  email: string;
}

export async function fixtureUser(ctx: Context, label = 'photos'): Promise<FixtureUser> {
  const email = `${label}-${String(++serial)}-${String(process.pid)}-${String(Date.now())}@example.org`;
  return { id: await insertUserWithKeyAttributes(ctx, email), email };
}

export async function fixtureAlbum(ctx: Context, ownerID: number, type: 'album' | 'uncategorized' = 'album') {
  const collection = await createCollection(ctx, ownerID, 'photos', {
    encryptedKey: filler(48, 4),
    keyDecryptionNonce: filler(24, 5),
    encryptedName: filler(32, 6),
    nameDecryptionNonce: filler(24, 7),
    type,
  });
  return collection.id;
}

/** A file of `ownerID` (file `size` bytes, thumbnail 10) in a collection; returns its id and object keys. */
export async function fixtureFile(ctx: Context, ownerID: number, collectionID: number, size = 100) {
  return ctx.db.transaction().execute(async (tx) => {
    const [collection] = await collectionsDb.lockCollections(tx, [collectionID]);
    if (!collection) throw new Error(`no collection ${String(collectionID)}`);
    const time = await stampCollections(tx, [collection]);
    const objects = { file: newObjectKey(ownerID), thumbnail: newObjectKey(ownerID) };
    const id = await insertFile(tx, {
      ownerID,
      fileObjectKey: objects.file,
      fileDecryptionHeader: filler(24, 8),
      fileSize: size,
      thumbnailObjectKey: objects.thumbnail,
      thumbnailDecryptionHeader: filler(24, 9),
      thumbnailSize: 10,
      encryptedMetadata: filler(60, 10),
      metadataDecryptionHeader: filler(24, 11),
      magicMetadata: JSON.stringify({ version: 1, count: 1, data: filler(20, 12), header: filler(24, 13) }),
      pubMagicMetadata: null,
      time,
    });
    await collectionsDb.upsertCollectionFiles(
      tx,
      { collectionID, ownerID: Number(collection.owner_id) },
      ownerID,
      [{ id, encryptedKey: filler(48, 14), keyDecryptionNonce: filler(24, 15) }],
      time,
    );
    return { id, objects };
  });
}

/** A file's key boxed for another collection (restore, add, move). */
export function fixtureKey(fileID: number) {
  return { id: fileID, encryptedKey: filler(48, 16), keyDecryptionNonce: filler(24, 17) };
}

/** A page of a collection's diff as its member's client reads it (services/collections.ts). */
export async function collectionDiff(
  ctx: Context,
  userID: number,
  collectionID: number,
  sinceTime: number,
): Promise<CollectionDiffResponse> {
  return JSON.parse(
    (await collectionDiffJson(ctx, userID, collectionID, sinceTime)).toString(),
  ) as CollectionDiffResponse;
}

/** A page of a link's diff as its visitor's client reads it (services/public-links.ts). */
export async function linkDiff(ctx: Context, access: LinkAccess, sinceTime: number): Promise<CollectionDiffResponse> {
  return JSON.parse((await linkDiffJson(ctx, access, sinceTime)).toString()) as CollectionDiffResponse;
}
