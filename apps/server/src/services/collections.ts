// The collections rules (docs/protocol.md#photos): albums, their sharing, and which files they hold.
// Every write locks the collections it changes (in id order), decides under that lock, then stamps the
// change for everyone who sees it (services/photo-clock.ts) and moves the collections' time to it, so a
// client that skips a collection whose updationTime it has seen skips nothing. Who may do what, as in
// museum: the owner does everything; a collaborator adds files and removes the ones they added; a viewer
// reads; anyone else gets 404 for a collection they cannot see (403 where museum answers so: the rename,
// delete and share of a collection one is not the owner of). The queries are db/collections.ts's.
import {
  limits,
  type AddFilesRequest,
  type Collection,
  type CollectionDiffResponse,
  type CollectionRole,
  type CollectionUser,
  type MagicMetadata,
  type PhotoFile,
  type PublicLink,
} from '@ente/protocol';

import { revokeCastsOfCollection } from '../db/casting.ts';
import * as collectionsDb from '../db/collections.ts';
import type { CollectionFileRow, CollectionRow } from '../db/collections.ts';
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { ownersOf } from '../db/files.ts';
import type { CollectionType, ShareRole } from '../db/schema.ts';
import * as usersDb from '../db/users.ts';
import { apiError, badRequest, plainError } from '../http/errors.ts';
import type { Context } from './context.ts';
import { stampChange } from './photo-clock.ts';
import { disableLinksOf, linksOf } from './public-links.ts';
import { lockCollectionTrash, lockForRestore, markRestored, pageWithoutSplitting, refuseTrashed } from './trash.ts';
import { hasKeyAttributes } from './users.ts';

const notFound = () => plainError(404);
const forbidden = () => plainError(403);
const collectionDeleted = () => apiError(404, 'COLLECTION_DELETED', 'the collection is deleted');

/** Creates a collection; a second favorites or uncategorized of the same app answers the first. */
export async function createCollection(
  ctx: Context,
  userID: number,
  app: string,
  body: {
    encryptedKey: string;
    keyDecryptionNonce: string;
    encryptedName: string;
    nameDecryptionNonce: string;
    type: CollectionType;
    magicMetadata?: MagicMetadata | undefined;
    pubMagicMetadata?: MagicMetadata | undefined;
  },
): Promise<Collection> {
  if (app === 'auth') throw badRequest('collections belong to the photos or locker app');
  // Without key attributes nobody could open the collection key (museum refuses the same way).
  if (!(await hasKeyAttributes(ctx, userID))) throw notFound();
  try {
    const row = await ctx.db.transaction().execute(async (tx) =>
      collectionsDb.insertCollection(tx, {
        ownerID: userID,
        ...body,
        app,
        magicMetadata: jsonOrNull(body.magicMetadata),
        pubMagicMetadata: jsonOrNull(body.pubMagicMetadata),
        time: await stampChange(tx, [userID]),
      }),
    );
    return collectionToWire({ ...row, owner_email: await emailOf(ctx, userID) }, { sharees: [] });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await collectionsDb.collectionOfType(ctx.db, userID, body.type, app);
    if (!existing) throw error;
    if (existing.is_deleted) throw apiError(409, 'CONFLICT', `the ${body.type} collection is deleted`);
    const sharees = await collectionsDb.shareesOf(ctx.db, [Number(existing.collection_id)]);
    return collectionToWire({ ...existing, owner_email: await emailOf(ctx, userID) }, { sharees });
  }
}

/** Every collection of `app` the user owns or that is shared with them, changed after `sinceTime`. */
export async function collectionsOf(ctx: Context, userID: number, app: string, sinceTime: number) {
  // One snapshot for both lists: a change to an owned collection committed between two reads, followed by
  // a later one to a shared collection, would otherwise be passed by the client's cursor unseen.
  const { owned, shared, sharees, links } = await ctx.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (tx) => {
      const owned = await collectionsDb.ownedCollectionsSince(tx, userID, sinceTime, app);
      const shared = await collectionsDb.sharedCollectionsSince(tx, userID, sinceTime, app);
      const live = [...owned, ...shared.filter((row) => !row.share_deleted)];
      const sharees = await collectionsDb.shareesOf(
        tx,
        live.map((row) => Number(row.collection_id)),
      );
      // The owner sees their albums' public links (services/public-links.ts).
      const links = await linksOf(
        ctx,
        tx,
        owned.map((row) => Number(row.collection_id)),
      );
      return { owned, shared, sharees, links };
    });
  return [
    ...owned.map((row) => collectionToWire(row, { sharees, publicURLs: links.get(Number(row.collection_id)) })),
    ...shared.map((row) =>
      collectionToWire(
        {
          ...row,
          // A sharee's key is the sealed box; an unshared collection is deleted for them.
          encrypted_key: row.share_key,
          is_deleted: row.is_deleted || row.share_deleted,
          owner_email: row.share_deleted ? '' : row.owner_email,
        },
        {
          sharees: row.share_deleted ? [] : sharees,
          sharee: { sharedAt: Number(row.shared_at), magicMetadata: row.share_magic_metadata },
        },
      ),
    ),
  ];
}

/**
 * The collection's files changed after `sinceTime`, as the JSON of the answer (a page of at most 2,500,
 * never splitting the rows of one change: its whole group waits for the next page, or makes a page of its
 * own when it alone is larger). The caller must own the collection or have it shared.
 */
export async function collectionDiffJson(
  ctx: Context,
  userID: number,
  collectionID: number,
  sinceTime: number,
): Promise<Buffer> {
  const collection = await collectionsDb.collectionOf(ctx.db, collectionID);
  if (!collection) throw notFound();
  const role = await roleOf(ctx.db, collection, userID);
  if (!role) throw notFound();
  return filesPageSince(ctx, collectionID, sinceTime, { forOwner: role === 'OWNER' });
}

const emptyDiffPage = Buffer.from(JSON.stringify({ diff: [], hasMore: false } satisfies CollectionDiffResponse));

/**
 * A page of the collection's files changed after `sinceTime`, as collectionDiffJson describes; shared by
 * the link diff. Kept serialized while the collection does not change (services/diff-pages.ts).
 */
export async function filesPageSince(
  ctx: Context,
  collectionID: number,
  sinceTime: number,
  view: { forOwner: boolean },
): Promise<Buffer> {
  // Read before the page: a page made after a later change is only ever newer than its key says.
  const latest = await collectionsDb.latestFileChange(ctx.db, collectionID);
  // Nothing changed after the cursor (the poll of a client that is up to date): the empty page, not kept.
  if (latest === null || Number(latest) <= sinceTime) return emptyDiffPage;
  const key = `${String(collectionID)}:${view.forOwner ? 'owner' : 'other'}:${String(sinceTime)}:${String(latest)}`;
  return ctx.diffPages.page(key, async () => {
    const page = limits.collectionDiffPage;
    const { rows, hasMore } = await pageWithoutSplitting(
      await collectionsDb.collectionFilesSince(ctx.db, collectionID, sinceTime, page + 1),
      page,
      (row) => String(row.updation_time),
      (time) => collectionsDb.collectionFilesAt(ctx.db, collectionID, time),
    );
    const answer: CollectionDiffResponse = { diff: rows.map((row) => fileToWire(row, view)), hasMore };
    return Buffer.from(JSON.stringify(answer));
  });
}

/** Renames a collection: its owner only. */
export async function renameCollection(
  ctx: Context,
  userID: number,
  body: { collectionID: number; encryptedName: string; nameDecryptionNonce: string },
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const collection = await lockOwned(tx, body.collectionID, userID);
    const time = await stampCollections(tx, [collection]);
    await collectionsDb.updateCollection(tx, body.collectionID, {
      encrypted_name: body.encryptedName,
      name_decryption_nonce: body.nameDecryptionNonce,
      updation_time: time,
    });
  });
}

/**
 * Adds the caller's files to a collection they own or collaborate on, each key boxed with the
 * collection's key. `restore` (POST /collections/restore-files) is for the owner only.
 */
export async function addFiles(
  ctx: Context,
  userID: number,
  app: string,
  body: AddFilesRequest,
  options: { restore?: boolean } = {},
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const [collection] = await collectionsDb.lockCollections(tx, [body.collectionID]);
    if (!collection) throw notFound();
    const role = await roleOf(tx, collection, userID);
    if (!role) throw notFound();
    if (collection.is_deleted) throw collectionDeleted();
    if (collection.app !== app) throw badRequest('the collection belongs to another app');
    const allowed = options.restore ? role === 'OWNER' : role !== 'VIEWER';
    if (!allowed) throw forbidden();
    const fileIDs = body.files.map((file) => file.id);
    await requireOwnFiles(tx, userID, fileIDs);
    // A restore takes files out of the trash; an add refuses them (services/trash.ts).
    await (options.restore ? lockForRestore(tx, userID, fileIDs) : refuseTrashed(tx, fileIDs));
    const time = await stampCollections(tx, [collection]);
    await collectionsDb.upsertCollectionFiles(tx, idsOf(collection), userID, dedupe(body.files), time);
    if (options.restore) await markRestored(tx, fileIDs, time);
  });
}

/** Moves the caller's files between two collections they own. */
export async function moveFiles(
  ctx: Context,
  userID: number,
  body: { fromCollectionID: number; toCollectionID: number; files: AddFilesRequest['files'] },
): Promise<void> {
  if (body.fromCollectionID === body.toCollectionID) throw badRequest('the two collections must differ');
  await ctx.db.transaction().execute(async (tx) => {
    const locked = await collectionsDb.lockCollections(tx, [body.fromCollectionID, body.toCollectionID]);
    const from = locked.find((row) => Number(row.collection_id) === body.fromCollectionID);
    const to = locked.find((row) => Number(row.collection_id) === body.toCollectionID);
    for (const collection of [from, to]) {
      if (!collection || !(await roleOf(tx, collection, userID))) throw notFound();
      if (Number(collection.owner_id) !== userID) throw forbidden();
      if (collection.is_deleted) throw collectionDeleted();
    }
    if (!from || !to) throw notFound();
    if (from.app !== to.app) throw badRequest('the collections belong to different apps');
    const fileIDs = body.files.map((file) => file.id);
    await requireOwnFiles(tx, userID, fileIDs);
    await refuseTrashed(tx, fileIDs);
    const time = await stampCollections(tx, [from, to]);
    await collectionsDb.upsertCollectionFiles(tx, idsOf(to), userID, dedupe(body.files), time);
    await collectionsDb.markCollectionFilesDeleted(tx, body.fromCollectionID, { fileIDs }, time);
  });
}

/**
 * Removes files from a collection (museum's v3): the owner removes files others added, a sharee the
 * files they added; the owner's own files never leave this way (they move, or go to the trash).
 */
export async function removeFiles(
  ctx: Context,
  userID: number,
  body: { collectionID: number; fileIDs: readonly number[] },
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const [collection] = await collectionsDb.lockCollections(tx, [body.collectionID]);
    if (!collection || !(await roleOf(tx, collection, userID))) throw notFound();
    const live = await collectionsDb.liveFilesIn(tx, body.collectionID, [...new Set(body.fileIDs)]);
    if (live.length === 0) return;
    const ownerID = Number(collection.owner_id);
    if (live.some((file) => file.ownerID === ownerID)) {
      throw badRequest("the collection owner's files cannot be removed from it: move or trash them");
    }
    if (ownerID !== userID && live.some((file) => file.ownerID !== userID)) throw forbidden();
    const time = await stampCollections(tx, [collection]);
    await collectionsDb.markCollectionFilesDeleted(tx, body.collectionID, { fileIDs: live.map((f) => f.fileID) }, time);
  });
}

/**
 * Deletes a collection (its owner only; favorites and uncategorized cannot go). With `keepFiles` it must
 * be empty already (409 COLLECTION_NOT_EMPTY); without, every file leaves it, the owner's to the trash. Its
 * shares, its public link and its casts end.
 */
export async function deleteCollection(
  ctx: Context,
  userID: number,
  collectionID: number,
  keepFiles: boolean,
): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    // Without keepFiles the owner's files go to the trash (services/trash.ts): their collections are locked first.
    const trashing = keepFiles ? undefined : await lockCollectionTrash(ctx, tx, collectionID, userID);
    const collection = await lockOwned(tx, collectionID, userID, { includeDeleted: true });
    if (collection.type === 'favorites' || collection.type === 'uncategorized') {
      throw badRequest(`a ${collection.type} collection cannot be deleted`);
    }
    if (collection.is_deleted) return;
    if (keepFiles && (await collectionsDb.countLiveFiles(tx, collectionID)) > 0) {
      throw apiError(409, 'COLLECTION_NOT_EMPTY', 'The collection is not empty');
    }
    const time = await stampCollections(tx, trashing?.collections.length ? trashing.collections : [collection]);
    await trashing?.apply(time);
    await collectionsDb.markCollectionFilesDeleted(tx, collectionID, 'all', time);
    await collectionsDb.markSharesDeleted(tx, collectionID, time);
    await disableLinksOf(tx, collectionID, time);
    await revokeCastsOfCollection(tx, collectionID);
    await collectionsDb.updateCollection(tx, collectionID, { is_deleted: true, updation_time: time });
  });
}

/**
 * Replaces a collection's magic metadata: the owner's private or public one, or a sharee's own. As in
 * museum the version is not compared (clients keep no history of it); the stored one is `version + 1`.
 */
export async function updateCollectionMagicMetadata(
  ctx: Context,
  userID: number,
  body: { id: number; magicMetadata: MagicMetadata },
  which: 'private' | 'public' | 'sharee',
): Promise<void> {
  const json = JSON.stringify({ ...body.magicMetadata, version: body.magicMetadata.version + 1 });
  await ctx.db.transaction().execute(async (tx) => {
    if (which === 'sharee') {
      const [collection] = await collectionsDb.lockCollections(tx, [body.id]);
      if (!collection || !(await collectionsDb.shareRoleOf(tx, body.id, userID))) throw notFound();
      const time = await stampCollections(tx, [collection]);
      await collectionsDb.setShareMagicMetadata(tx, { collectionID: body.id, toUserID: userID }, json, time);
      return;
    }
    const collection = await lockOwned(tx, body.id, userID);
    const time = await stampCollections(tx, [collection]);
    const column = which === 'private' ? 'magic_metadata' : 'pub_magic_metadata';
    await collectionsDb.updateCollection(tx, body.id, { [column]: json, updation_time: time });
  });
}

/** Shares a collection with the account of `email` (its owner only); answers the sharees. */
export async function shareCollection(
  ctx: Context,
  userID: number,
  body: { collectionID: number; email: string; role: ShareRole; encryptedKey: string },
): Promise<CollectionUser[]> {
  const shareeID = await userIDByEmail(ctx, body.email);
  return ctx.db.transaction().execute(async (tx) => {
    const collection = await lockOwned(tx, body.collectionID, userID);
    if (shareeID === userID) throw badRequest('a collection cannot be shared with its owner');
    if (collection.type === 'uncategorized') throw badRequest('an uncategorized collection cannot be shared');
    const time = await stampCollections(tx, [collection], [shareeID]);
    await collectionsDb.upsertShare(
      tx,
      {
        collectionID: body.collectionID,
        fromUserID: userID,
        toUserID: shareeID,
        role: body.role,
        encryptedKey: body.encryptedKey,
      },
      time,
    );
    return shareesToWire(await collectionsDb.shareesOf(tx, [body.collectionID]));
  });
}

/** Ends the share with the account of `email` (the owner only); the files they added leave. Answers the sharees. */
export async function unshareCollection(
  ctx: Context,
  userID: number,
  body: { collectionID: number; email: string },
): Promise<CollectionUser[]> {
  const shareeID = await userIDByEmail(ctx, body.email);
  return ctx.db.transaction().execute(async (tx) => {
    const collection = await lockOwned(tx, body.collectionID, userID, { includeDeleted: true });
    if (shareeID === userID) throw forbidden();
    await endShare(tx, collection, shareeID);
    return shareesToWire(await collectionsDb.shareesOf(tx, [body.collectionID]));
  });
}

/** The caller leaves a collection shared with them (not one they own: 403); not shared is a success. */
export async function leaveCollection(ctx: Context, userID: number, collectionID: number): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const [collection] = await collectionsDb.lockCollections(tx, [collectionID]);
    if (!collection) throw notFound();
    if (Number(collection.owner_id) === userID) throw forbidden();
    await endShare(tx, collection, userID);
  });
}

async function endShare(tx: Db, collection: CollectionRow, shareeID: number): Promise<void> {
  const collectionID = Number(collection.collection_id);
  if (!(await collectionsDb.shareRoleOf(tx, collectionID, shareeID))) return;
  const time = await stampCollections(tx, [collection], [shareeID]);
  await collectionsDb.markSharesDeleted(tx, collectionID, time, shareeID);
  await collectionsDb.markCollectionFilesDeleted(tx, collectionID, { fileOwnerID: shareeID }, time);
  // A later share must not bring back a screen the sharee cast it to (services/cast.ts).
  await revokeCastsOfCollection(tx, collectionID, shareeID);
}

/**
 * Stamps a change to these locked collections for their owners, live sharees and `others`, and moves
 * the collections to that time; returns it.
 */
export async function stampCollections(
  tx: Db,
  collections: readonly CollectionRow[],
  others: readonly number[] = [],
): Promise<number> {
  const ids = collections.map((collection) => Number(collection.collection_id));
  const sharees = await collectionsDb.shareesOf(tx, ids);
  const time = await stampChange(tx, [
    ...collections.map((collection) => Number(collection.owner_id)),
    ...sharees.map((sharee) => Number(sharee.to_user_id)),
    ...others,
  ]);
  await collectionsDb.touchCollections(tx, ids, time);
  return time;
}

/** The caller's role in a collection: OWNER, their live share's role, or undefined (no access). */
async function roleOf(db: Db, collection: CollectionRow, userID: number): Promise<CollectionRole | undefined> {
  if (Number(collection.owner_id) === userID) return 'OWNER';
  return collectionsDb.shareRoleOf(db, Number(collection.collection_id), userID);
}

/** Locks a collection the caller owns: 404 when it does not exist (or is deleted), 403 when it is another's. */
export async function lockOwned(
  tx: Db,
  collectionID: number,
  userID: number,
  options: { includeDeleted?: boolean } = {},
) {
  const [collection] = await collectionsDb.lockCollections(tx, [collectionID]);
  if (!collection) throw notFound();
  if (Number(collection.owner_id) !== userID) throw forbidden();
  if (collection.is_deleted && !options.includeDeleted) throw collectionDeleted();
  return collection;
}

/** Every id must be a file of the caller (not deleted for ever): unknown 404, another's 403. */
async function requireOwnFiles(tx: Db, userID: number, fileIDs: readonly number[]): Promise<void> {
  const unique = [...new Set(fileIDs)];
  const owners = await ownersOf(tx, unique);
  if (owners.some((file) => file.ownerID !== userID)) throw forbidden();
  if (owners.length !== unique.length) throw notFound();
}

async function userIDByEmail(ctx: Context, email: string): Promise<number> {
  const user = await usersDb.userByEmail(ctx.db, email);
  if (!user) throw apiError(404, 'NOT_FOUND', 'no account with this e-mail');
  return Number(user.user_id);
}

async function emailOf(ctx: Context, userID: number): Promise<string> {
  return usersDb.emailOf(ctx.db, userID);
}

function idsOf(collection: CollectionRow) {
  return { collectionID: Number(collection.collection_id), ownerID: Number(collection.owner_id) };
}

function dedupe<T extends { id: number }>(files: readonly T[]): T[] {
  return [...new Map(files.map((file) => [file.id, file])).values()];
}

function jsonOrNull(value: MagicMetadata | undefined): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** Stored magic metadata (JSON text) in wire form, or undefined. */
export function magicMetadataOf(json: string | null): MagicMetadata | undefined {
  return json === null ? undefined : (JSON.parse(json) as MagicMetadata);
}

type ShareeRow = Awaited<ReturnType<typeof collectionsDb.shareesOf>>[number];

function shareesToWire(rows: readonly ShareeRow[]): CollectionUser[] {
  return rows.map((row) => ({ id: Number(row.to_user_id), email: row.email, name: '', role: row.role }));
}

export function collectionToWire(
  row: CollectionRow & { owner_email: string },
  view: {
    sharees: readonly ShareeRow[];
    sharee?: { sharedAt: number; magicMetadata: string | null };
    publicURLs?: readonly PublicLink[] | undefined;
  },
): Collection {
  const id = Number(row.collection_id);
  const magic = magicMetadataOf(row.magic_metadata);
  const pubMagic = magicMetadataOf(row.pub_magic_metadata);
  const sharedMagic = view.sharee ? magicMetadataOf(view.sharee.magicMetadata) : undefined;
  return {
    id,
    owner: { id: Number(row.owner_id), email: row.owner_email, name: '', role: 'OWNER' },
    encryptedKey: row.encrypted_key,
    ...(view.sharee ? {} : { keyDecryptionNonce: row.key_decryption_nonce }),
    name: '',
    encryptedName: row.encrypted_name,
    nameDecryptionNonce: row.name_decryption_nonce,
    type: row.type,
    attributes: JSON.parse(row.attributes) as Collection['attributes'],
    sharees: row.is_deleted ? [] : shareesToWire(view.sharees.filter((s) => Number(s.collection_id) === id)),
    publicURLs: [...(view.publicURLs ?? [])],
    updationTime: Number(row.updation_time),
    ...(view.sharee && { sharedAt: view.sharee.sharedAt }),
    ...(row.is_deleted && { isDeleted: true }),
    // A sharee does not see the owner's private metadata.
    ...(magic && !view.sharee && { magicMetadata: magic }),
    ...(pubMagic && { pubMagicMetadata: pubMagic }),
    ...(sharedMagic && { sharedMagicMetadata: sharedMagic }),
    app: row.app,
  };
}

/** A collection_files row with its file, as a client gets it; the owner's private parts only for the owner. */
export function fileToWire(row: CollectionFileRow, view: { forOwner: boolean; objectKeys?: boolean }): PhotoFile {
  const magic = magicMetadataOf(row.magic_metadata);
  const pubMagic = magicMetadataOf(row.pub_magic_metadata);
  const fileSize = Number(row.file_size);
  const thumbSize = Number(row.thumbnail_size);
  return {
    id: Number(row.file_id),
    ownerID: Number(row.owner_id),
    collectionID: Number(row.collection_id),
    collectionOwnerID: Number(row.c_owner_id),
    collectionAddedAt: Number(row.added_at),
    encryptedKey: row.encrypted_key,
    keyDecryptionNonce: row.key_decryption_nonce,
    file: {
      ...(view.objectKeys && { objectKey: row.file_object_key }),
      decryptionHeader: row.file_decryption_header,
      size: fileSize,
    },
    thumbnail: {
      ...(view.objectKeys && { objectKey: row.thumbnail_object_key }),
      decryptionHeader: row.thumbnail_decryption_header,
      size: thumbSize,
    },
    metadata: { encryptedData: row.encrypted_metadata, decryptionHeader: row.metadata_decryption_header, size: 0 },
    isDeleted: row.is_deleted || row.file_deleted,
    updationTime: Number(row.updation_time),
    ...(magic && view.forOwner && { magicMetadata: magic }),
    ...(pubMagic && { pubMagicMetadata: pubMagic }),
    info: { fileSize, thumbSize },
  };
}
