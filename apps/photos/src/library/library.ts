// The photos library: the signed-in user's albums, files and trash, kept in step with the server and with
// the other tabs of this browser. This module is the shell around the pure core (core.ts): it runs the core's
// effects through the adapters (the API, the crypto worker, the cache, the tab signals) and turns what they
// answer into the core's events. Pages read it through `snapshot()`/`subscribe()` (use-library.ts).
//
// [Note: Photos library sync]
// - Open: the cache (library-cache.ts, [Note: Photos library cache]) is read and opened in the crypto worker
//   (collections in one call, files in batches per collection), so a reload shows the gallery before the
//   network answers; then a pull runs.
// - Pull: `GET /collections/v2?sinceTime=` from the collections' cursor; then, for each live collection whose
//   `updationTime` is past its files' cursor, its diff page by page (`hasMore`) with @ente/shared/sync/
//   paged-diff.ts, one cursor per collection; then the trash diff the same way. Each page is opened in one
//   worker call per batch and saved with its cursor in one transaction before the next is asked for. A
//   collection with `isDeleted` (deleted, left, unshared) leaves the albums with its files; a file row with
//   `isDeleted` leaves its collection. Pulls never overlap: one asked for during another runs after it.
// - Files are one per id in the snapshot (a file in two albums under one key lists both in `collectionIDs`).
//   Hidden albums, and every file in one, are left out of its `albums` and `files` (core.ts `isHidden`).
// - Writes: encrypted in the worker (a file key re-boxed under the target album's key, a name under the
//   album's key, an album key sealed to a sharee), sent, then a pull brings the server's result, and the
//   other tabs are told to pull.
// - Other tabs and the clock: @ente/shared/sync/tab-signals.ts on LIBRARY_CHANNEL, through the shell every
//   synced store shares (@ente/shared/sync/core-shell.ts, [Note: Core shell]), as the auth vault does.
import { masterKeyOfThisTab } from '@ente/accounts/services/storage.ts';
import type { LibraryUserKeys, LockedCollection, LockedFile, OpenedFile } from '@ente/crypto/api.ts';
import { cryptoWorker } from '@ente/crypto/client.ts';
import type { TrashEntry } from '@ente/protocol/photos-trash-links.ts';
import type { Collection, CollectionRole, PhotoFile } from '@ente/protocol/photos.ts';
import { NetworkError } from '@ente/shared/http.ts';
import { log } from '@ente/shared/log.ts';
import { savedKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';
import { savedUserID } from '@ente/shared/storage/user.ts';
import { CoreShell } from '@ente/shared/sync/core-shell.ts';
import type { EntityCacheChange } from '@ente/shared/sync/entity-cache.ts';
import { pullPages } from '@ente/shared/sync/paged-diff.ts';

import * as api from '../services/api.ts';
import { cacheIds } from './cache-ids.ts';
import {
  collectionsToPull,
  copyToWrite,
  initialState,
  newestTime,
  snapshotOf,
  step,
  type CollectionEntry,
  type LibraryEffect,
  type LibraryEvent,
  type LibrarySnapshot,
  type LibraryState,
} from './core.ts';
import { LibraryError } from './errors.ts';
import { cachedRow, libraryCache, rowsOf } from './library-cache.ts';
import { albumOf, galleryFileOf } from './model.ts';
import type { Album, AlbumLink, GalleryFile, TrashedFile } from './types.ts';

export type { LibrarySnapshot } from './core.ts';
export { filesOfAlbum, newestFirst, takenAt, timelineFiles } from './order.ts';
export { LibraryError, type LibraryErrorKey } from './errors.ts';
export { shareableLink } from './link-url.ts';

/** The BroadcastChannel on which the libraries of one browser say "changed" (never any data). */
export const LIBRARY_CHANNEL = 'ente-photos-library';

/** How often a visible tab pulls. */
export const LIBRARY_SYNC_INTERVAL_MS = 60_000;

/** Files opened per worker call. */
const OPEN_BATCH = 500;
/** Files per write request (the server's limit of 1,000; 2,500 for deleting from the trash). */
const WRITE_BATCH = 1000;

/** What a link's owner may change; `password: null` removes the password. */
export interface LinkChanges {
  validTill?: number;
  deviceLimit?: number;
  enableDownload?: boolean;
  enableCollect?: boolean;
  password?: string | null;
}

export interface Library {
  /** The current state: the same object until something changes. */
  snapshot(): LibrarySnapshot;
  /** For useSyncExternalStore; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Pulls now and resolves when the pull is over. Never rejects: a failure is the snapshot's `failed`/`offline`. */
  refresh(): Promise<void>;
  /** Forgets keys and files, stops listening (logout, lock); the library is unusable afterwards. */
  close(): void;

  /** A new album; resolves with its id once the pull shows it. */
  createAlbum(name: string): Promise<number>;
  /**
   * The user's own album of `type` `uncategorized` (where an upload without a chosen album goes) or `favorites`,
   * created when there is none (the server answers the existing one to a second creation).
   */
  specialAlbum(type: 'uncategorized' | 'favorites'): Promise<Album>;
  renameAlbum(albumID: number, name: string): Promise<void>;
  /**
   * `keepFiles`: its files are first taken out of it (`takeOutOfAlbum`), since the server deletes only an empty
   * album that way; otherwise the user's files in it go to the trash.
   */
  deleteAlbum(albumID: number, options: { keepFiles: boolean }): Promise<void>;
  addToAlbum(albumID: number, files: readonly GalleryFile[]): Promise<void>;
  moveToAlbum(fromAlbumID: number, toAlbumID: number, files: readonly GalleryFile[]): Promise<void>;
  removeFromAlbum(albumID: number, fileIDs: readonly number[]): Promise<void>;
  /**
   * Files out of an album of the user's own, staying in the library: others' files are removed, the user's own
   * (which the server lets leave only by a move or the trash) move to another album of theirs that holds them,
   * else to `uncategorized`; one only in `uncategorized` stays there.
   */
  takeOutOfAlbum(albumID: number, fileIDs: readonly number[]): Promise<void>;
  /** The files leave every album for the trash (each named with an album of the user's own that holds it). */
  trashFiles(files: readonly GalleryFile[]): Promise<void>;
  /**
   * A selection to the trash as far as it is the user's: their own files (in an album of theirs) go, the others
   * (a collaborator's, or in albums shared with the user only) stay; resolves with how many stayed.
   */
  trashOwnFiles(files: readonly GalleryFile[]): Promise<{ leftOut: number }>;
  /** Files of the trash back into an album of the user's own. */
  restoreFiles(albumID: number, fileIDs: readonly number[]): Promise<void>;
  deleteForever(fileIDs: readonly number[]): Promise<void>;
  /** Deletes for ever everything in the trash as this tab last pulled it (a file trashed since stays). */
  emptyTrash(): Promise<void>;
  shareAlbum(albumID: number, email: string, role: Extract<CollectionRole, 'VIEWER' | 'COLLABORATOR'>): Promise<void>;
  unshareAlbum(albumID: number, email: string): Promise<void>;
  leaveAlbum(albumID: number): Promise<void>;
  /** The album's public link (its live one if it has one), with `changes` applied when given. */
  createLink(albumID: number, changes?: LinkChanges): Promise<AlbumLink>;
  updateLink(albumID: number, changes: LinkChanges): Promise<AlbumLink>;
  deleteLink(albumID: number): Promise<void>;
}

export interface OpenLibraryOptions {
  /** How often a visible tab pulls (tests lengthen it). */
  syncIntervalMs?: number;
}

/**
 * Opens the library of the signed-in user whose masterKey this tab holds. Resolves once the cache is read
 * and shown (status 'ready' when it held the library, else 'loading' until the first pull ends); the pull
 * runs on. Throws LibraryError 'notSignedIn' or 'locked'.
 */
export async function openLibrary(options: OpenLibraryOptions = {}): Promise<Library> {
  const [userID, masterKey] = await Promise.all([savedUserID(), masterKeyOfThisTab()]);
  if (userID === undefined || !Number.isFinite(userID)) throw new LibraryError('notSignedIn');
  const attributes = savedKeyAttributes();
  if (masterKey === undefined || !attributes) throw new LibraryError('locked');
  const keys: LibraryUserKeys = {
    masterKey,
    publicKey: attributes.publicKey,
    encryptedSecretKey: attributes.encryptedSecretKey,
    secretKeyDecryptionNonce: attributes.secretKeyDecryptionNonce,
  };
  const library = new LibrarySession(userID, keys, options.syncIntervalMs ?? LIBRARY_SYNC_INTERVAL_MS);
  await library.start();
  return library;
}

const openLibraries = new Set<LibrarySession>();
let ofThisTab: Promise<Library> | undefined;
// Logout forgets every open library of this tab.
registerInMemoryReset('photos-library', () => {
  ofThisTab = undefined;
  for (const library of [...openLibraries]) library.close();
});

/** The library every page of this tab shares: opened on first use, opened again after it was closed. */
export function libraryOfThisTab(): Promise<Library> {
  const opening = (ofThisTab ??= openLibrary());
  opening.catch(() => {
    if (ofThisTab === opening) ofThisTab = undefined;
  });
  return opening;
}

const lockedCollection = (row: Collection): LockedCollection => ({
  encryptedKey: row.encryptedKey,
  keyDecryptionNonce: row.keyDecryptionNonce,
  encryptedName: row.encryptedName,
  nameDecryptionNonce: row.nameDecryptionNonce,
  name: row.name,
  magicMetadata: row.magicMetadata,
  pubMagicMetadata: row.pubMagicMetadata,
  sharedMagicMetadata: row.sharedMagicMetadata,
});

const lockedFile = (row: PhotoFile): LockedFile => ({
  encryptedKey: row.encryptedKey,
  keyDecryptionNonce: row.keyDecryptionNonce,
  metadata: row.metadata,
  magicMetadata: row.magicMetadata,
  pubMagicMetadata: row.pubMagicMetadata,
});

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

class LibrarySession
  extends CoreShell<LibraryState, LibraryEvent, LibraryEffect, LibrarySnapshot, EntityCacheChange>
  implements Library
{
  private cacheBroken = false;

  /** `keys` are forgotten when the library closes. */
  constructor(
    private readonly userID: number,
    private keys: LibraryUserKeys | undefined,
    private readonly syncIntervalMs: number,
  ) {
    super({ initial: initialState, step, snapshotOf });
  }

  async start(): Promise<void> {
    openLibraries.add(this);
    await this.loadCache();
    if (this.state.closed) return;
    await this.goLive(LIBRARY_CHANNEL, this.syncIntervalMs);
  }

  refresh(): Promise<void> {
    return this.pullAndWait();
  }

  close(): void {
    void this.dispatch({ type: 'closed' });
  }

  // --- Writes

  async createAlbum(name: string): Promise<number> {
    const keys = this.openKeys();
    const created = await (await cryptoWorker()).newCollectionKeys(name, keys.masterKey);
    const { key: _key, ...fields } = created;
    const collection = await this.written(() =>
      api.createCollection({ ...fields, type: 'album' }, this.requestOptions),
    );
    return collection.id;
  }

  async specialAlbum(type: 'uncategorized' | 'favorites'): Promise<Album> {
    const own = () =>
      [...this.state.collections.values()].find(
        ({ album, deleted }) => !deleted && album.type === type && album.role === 'OWNER',
      )?.album;
    const found = own();
    if (found) return found;
    const keys = this.openKeys();
    // Ente's clients name them so; the name is shown only where the type has no translated name of its own.
    const name = type === 'uncategorized' ? 'Uncategorized' : 'Favorites';
    const { key: _key, ...fields } = await (await cryptoWorker()).newCollectionKeys(name, keys.masterKey);
    await this.written(() => api.createCollection({ ...fields, type }, this.requestOptions));
    const created = own();
    if (!created) throw new LibraryError('albumNotFound');
    return created;
  }

  async renameAlbum(albumID: number, name: string): Promise<void> {
    const album = this.album(albumID);
    const encrypted = await (await cryptoWorker()).encryptCollectionName(name, album.key);
    await this.written(() => api.renameCollection({ collectionID: albumID, ...encrypted }, this.requestOptions));
  }

  async deleteAlbum(albumID: number, { keepFiles }: { keepFiles: boolean }): Promise<void> {
    this.album(albumID);
    // With keepFiles the server refuses an album that still holds a file (409 COLLECTION_NOT_EMPTY).
    if (keepFiles) await this.takeOutOfAlbum(albumID, [...(this.state.files.get(albumID)?.keys() ?? [])]);
    await this.written(() => api.deleteCollection(albumID, keepFiles, this.requestOptions));
  }

  async addToAlbum(albumID: number, files: readonly GalleryFile[]): Promise<void> {
    const target = this.album(albumID);
    const boxed = await this.boxed(
      files.map((file) => copyToWrite(this.state, file.id)),
      target.key,
    );
    await this.written(async () => {
      for (const batch of chunks(boxed, WRITE_BATCH)) {
        await api.addFiles({ collectionID: albumID, files: batch }, this.requestOptions);
      }
    });
  }

  async moveToAlbum(fromAlbumID: number, toAlbumID: number, files: readonly GalleryFile[]): Promise<void> {
    this.album(fromAlbumID);
    const target = this.album(toAlbumID);
    // The key the source album's own row holds, never another album's copy of the file.
    const boxed = await this.boxed(
      files.map((file) => copyToWrite(this.state, file.id, fromAlbumID)),
      target.key,
    );
    await this.written(async () => {
      for (const batch of chunks(boxed, WRITE_BATCH)) {
        const request = { fromCollectionID: fromAlbumID, toCollectionID: toAlbumID, files: batch };
        await api.moveFiles(request, this.requestOptions);
      }
    });
  }

  async removeFromAlbum(albumID: number, fileIDs: readonly number[]): Promise<void> {
    this.album(albumID);
    await this.written(async () => {
      for (const batch of chunks(fileIDs, WRITE_BATCH)) {
        await api.removeFiles({ collectionID: albumID, fileIDs: batch }, this.requestOptions);
      }
    });
  }

  async takeOutOfAlbum(albumID: number, fileIDs: readonly number[]): Promise<void> {
    this.owned(albumID);
    const files = fileIDs.flatMap((id) => this.state.files.get(albumID)?.get(id) ?? []);
    const others = files.filter((file) => file.ownerID !== this.userID).map((file) => file.id);
    if (others.length > 0) await this.removeFromAlbum(albumID, others);
    const holding = (fileID: number) =>
      [...this.state.collections.values()]
        .filter(({ album, deleted }) => !deleted && album.role === 'OWNER' && album.id !== albumID)
        .map(({ album }) => album.id)
        .sort((a, b) => a - b)
        .find((id) => this.state.files.get(id)?.has(fileID));
    const moves = new Map<number, GalleryFile[]>();
    for (const file of files.filter((each) => each.ownerID === this.userID)) {
      const target = holding(file.id) ?? (await this.specialAlbum('uncategorized')).id;
      if (target !== albumID) moves.set(target, [...(moves.get(target) ?? []), file]);
    }
    for (const [target, moved] of moves) await this.moveToAlbum(albumID, target, moved);
  }

  async trashFiles(files: readonly GalleryFile[]): Promise<void> {
    const items = files.map((file) => {
      const own = file.collectionIDs.find((id) => this.state.collections.get(id)?.album.role === 'OWNER');
      if (own === undefined) throw new LibraryError('notOwner');
      return { fileID: file.id, collectionID: own };
    });
    await this.written(async () => {
      for (const batch of chunks(items, WRITE_BATCH)) await api.trashFiles(batch, this.requestOptions);
    });
  }

  async trashOwnFiles(files: readonly GalleryFile[]): Promise<{ leftOut: number }> {
    const own = files.filter(
      (file) =>
        file.ownerID === this.userID &&
        file.collectionIDs.some((id) => this.state.collections.get(id)?.album.role === 'OWNER'),
    );
    if (own.length > 0) await this.trashFiles(own);
    return { leftOut: files.length - own.length };
  }

  async restoreFiles(albumID: number, fileIDs: readonly number[]): Promise<void> {
    const target = this.album(albumID);
    if (target.role !== 'OWNER') throw new LibraryError('notOwner');
    const files = fileIDs.flatMap((id) => this.state.trash.get(id)?.file ?? []);
    const boxed = await this.boxed(files, target.key);
    await this.written(async () => {
      for (const batch of chunks(boxed, WRITE_BATCH)) {
        await api.restoreFiles({ collectionID: albumID, files: batch }, this.requestOptions);
      }
    });
  }

  async deleteForever(fileIDs: readonly number[]): Promise<void> {
    await this.written(async () => {
      for (const batch of chunks(fileIDs, 2500)) await api.deleteFromTrash(batch, this.requestOptions);
    });
  }

  async emptyTrash(): Promise<void> {
    const cursor = this.state.cursors.trash;
    await this.written(() => api.emptyTrash(cursor, this.requestOptions));
  }

  async shareAlbum(
    albumID: number,
    email: string,
    role: Extract<CollectionRole, 'VIEWER' | 'COLLABORATOR'>,
  ): Promise<void> {
    const album = this.owned(albumID);
    const publicKey = await api.getPublicKey(email, this.requestOptions);
    const encryptedKey = await (await cryptoWorker()).sealCollectionKey(album.key, publicKey);
    await this.written(() =>
      api.shareCollection({ collectionID: albumID, email, role, encryptedKey }, this.requestOptions),
    );
  }

  async unshareAlbum(albumID: number, email: string): Promise<void> {
    this.owned(albumID);
    await this.written(() => api.unshareCollection({ collectionID: albumID, email }, this.requestOptions));
  }

  async leaveAlbum(albumID: number): Promise<void> {
    this.album(albumID);
    await this.written(() => api.leaveCollection(albumID, this.requestOptions));
  }

  async createLink(albumID: number, changes?: LinkChanges): Promise<AlbumLink> {
    this.owned(albumID);
    const request = { collectionID: albumID, enableCollect: changes?.enableCollect ?? false };
    const created = await this.written(() => api.createPublicLink(request, this.requestOptions));
    const rest = { ...changes };
    delete rest.enableCollect;
    if (Object.keys(rest).length === 0) return linkOf(created);
    return this.updateLink(albumID, rest);
  }

  async updateLink(albumID: number, changes: LinkChanges): Promise<AlbumLink> {
    this.owned(albumID);
    const { password, ...fields } = changes;
    const request: api.UpdatePublicLinkRequest = { collectionID: albumID, ...definedOnly(fields) };
    if (password === null) request.disablePassword = true;
    else if (password !== undefined) Object.assign(request, await (await cryptoWorker()).hashLinkPassword(password));
    return linkOf(await this.written(() => api.updatePublicLink(request, this.requestOptions)));
  }

  async deleteLink(albumID: number): Promise<void> {
    this.owned(albumID);
    await this.written(() => api.deletePublicLink(albumID, this.requestOptions));
  }

  /**
   * Runs a write, then pulls what it changed and tells the other tabs (the pull is over when it resolves). A write
   * that fails is pulled after too: batches before the failing one went through, and an answer lost on the way
   * back (a timeout, a proxy's 5xx) may hide a change the server made.
   */
  private async written<T>(write: () => Promise<T>): Promise<T> {
    this.openKeys();
    const outcome = await write().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (this.isClosed()) throw outcome.ok ? new LibraryError('closed') : outcome.error;
    await this.dispatch({ type: 'written' });
    await this.pullAndWait();
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  private album(albumID: number): Album {
    this.openKeys();
    const entry = this.state.collections.get(albumID);
    if (!entry || entry.deleted) throw new LibraryError('albumNotFound');
    return entry.album;
  }

  private owned(albumID: number): Album {
    const album = this.album(albumID);
    if (album.role !== 'OWNER') throw new LibraryError('notOwner');
    return album;
  }

  /**
   * File keys boxed for a collection. A file of the library is passed as the copy `copyToWrite` chose (undefined:
   * none the library trusts), so that the key comes from an album's own row, never from the object a page
   * holds; those without one are left out (logged as a count).
   */
  private async boxed(files: readonly (GalleryFile | undefined)[], collectionKey: string) {
    const keys = files.flatMap((file) => (file ? [{ id: file.id, key: file.key }] : []));
    if (keys.length < files.length)
      log.warn(`${String(files.length - keys.length)} files left out: no copy whose key the library trusts`);
    return (await cryptoWorker()).boxFileKeys(keys, collectionKey);
  }

  private openKeys(): LibraryUserKeys {
    if (!this.keys || this.state.closed) throw new LibraryError('closed');
    return this.keys;
  }

  // --- Running the core

  /**
   * Saves a page with its cursor. After a failed save (storage full, private browsing) the cache is emptied
   * and no longer written in this session, so that a later page's cursor can never skip the lost one; the
   * next load pulls everything again.
   */
  protected async save(change: EntityCacheChange): Promise<void> {
    if (this.cacheBroken) return;
    try {
      await libraryCache.saveChange(this.userID, change);
    } catch (e) {
      this.cacheBroken = true;
      log.warn('Could not cache the photos library; it is no longer cached in this tab', e);
      await libraryCache.clear().catch((error: unknown) => log.warn('Could not empty the library cache', error));
    }
  }

  protected forget(): void {
    openLibraries.delete(this);
    void ofThisTab?.then((library) => {
      if (library === this) ofThisTab = undefined;
    });
    this.keys = undefined;
  }

  // --- Loading and pulling

  private async loadCache(): Promise<void> {
    try {
      const { entities } = await libraryCache.read(this.userID);
      const rows = rowsOf(entities);
      if (rows.cursors.collections === 0 || this.state.closed) return;
      const collections = await this.openCollections(rows.collections);
      const byID = new Map(collections.entries.map((entry) => [entry.album.id, entry]));
      const files: { collectionID: number; files: GalleryFile[] }[] = [];
      for (const [collectionID, held] of rows.files) {
        const entry = byID.get(collectionID);
        if (!entry || entry.deleted) continue;
        files.push({ collectionID, files: (await this.openFiles(held, entry.album)).files });
      }
      const trash = await this.openTrash(rows.trash, byID);
      if (this.isClosed()) return;
      await this.dispatch({ type: 'cacheRead', collections: collections.entries, files, trash, cursors: rows.cursors });
    } catch (e) {
      log.warn('Could not read the cached library', e);
    }
  }

  /** One pull (collections, each changed collection's files, the trash), then the core's verdict. */
  protected async pullOnce(): Promise<void> {
    try {
      const rows = await api.getCollections(this.state.cursors.collections, this.requestOptions);
      this.ensureOpen();
      const { entries, unopened } = await this.openCollections(rows);
      this.ensureOpen();
      // Nothing changed: no cache write (most pulls of a visible tab).
      if (rows.length > 0)
        await this.dispatch({
          type: 'collectionsApplied',
          changed: entries,
          unopened,
          cached: rows.map((row) => cachedRow(cacheIds.collection(row.id), row, row.updationTime)),
          cursor: newestTime(this.state.cursors.collections, rows),
        });
      for (const collectionID of collectionsToPull(this.state)) await this.pullFiles(collectionID);
      await this.pullTrash();
      await this.dispatch({ type: 'pullSucceeded' });
    } catch (e) {
      if (this.state.closed) return;
      const offline = e instanceof NetworkError;
      if (!offline) log.error('Could not sync the photos library', e);
      await this.dispatch({ type: 'pullFailed', offline });
    }
  }

  private async pullFiles(collectionID: number): Promise<void> {
    // The album's time as the collections list answered it, before its diff was asked for: every change to its
    // files up to that time is in the diff (the one diff rule), so once the diff ends the files' cursor reaches it.
    // Otherwise an album whose time moved without a file (a rename, a share, a link) would be asked at every pull.
    const seen = this.state.collections.get(collectionID)?.album.updationTime ?? 0;
    await pullHasMore<PhotoFile>({
      cursor: this.state.cursors.files.get(collectionID) ?? 0,
      fetch: (sinceTime) => api.getCollectionDiff(collectionID, sinceTime, this.requestOptions),
      updatedAt: (row) => row.updationTime,
      apply: async (rows, cursor) => {
        const entry = this.state.collections.get(collectionID);
        if (!entry || entry.deleted) return;
        const live = rows.filter((row) => !row.isDeleted);
        const { files, unopened } = await this.openFiles(live, entry.album);
        this.ensureOpen();
        await this.dispatch({
          type: 'filesApplied',
          collectionID,
          changed: files,
          removed: [...rows.filter((row) => row.isDeleted).map((row) => row.id), ...unopened],
          cached: live.map((row) => cachedRow(cacheIds.file(collectionID, row.id), row, row.updationTime)),
          cursor,
        });
      },
    });
    if (seen > (this.state.cursors.files.get(collectionID) ?? 0)) {
      const nothing = { changed: [], removed: [], cached: [] };
      await this.dispatch({ type: 'filesApplied', collectionID, ...nothing, cursor: seen });
    }
  }

  private async pullTrash(): Promise<void> {
    await pullHasMore<TrashEntry>({
      cursor: this.state.cursors.trash,
      fetch: (sinceTime) => api.getTrashDiff(sinceTime, this.requestOptions),
      updatedAt: (entry) => entry.updatedAt,
      apply: async (entries, cursor) => {
        const gone = (entry: TrashEntry) => entry.isDeleted || entry.isRestored;
        const live = entries.filter((entry) => !gone(entry));
        const trashed = await this.openTrash(live, this.state.collections);
        this.ensureOpen();
        const shown = new Set(trashed.map((entry) => entry.file.id));
        await this.dispatch({
          type: 'trashApplied',
          changed: trashed,
          removed: entries.filter((entry) => gone(entry) || !shown.has(entry.file.id)).map((entry) => entry.file.id),
          cached: live.map((entry) => cachedRow(cacheIds.trashEntry(entry.file.id), entry, entry.updatedAt)),
          cursor,
        });
      },
    });
  }

  private async openCollections(
    rows: readonly Collection[],
  ): Promise<{ entries: CollectionEntry[]; unopened: number[] }> {
    const keys = this.openKeys();
    if (rows.length === 0) return { entries: [], unopened: [] };
    const opened = await (await cryptoWorker()).openCollections(rows.map(lockedCollection), keys);
    const entries: CollectionEntry[] = [];
    const unopened: number[] = [];
    rows.forEach((row, index) => {
      const result = opened[index];
      const album = result ? albumOf(row, result, this.userID) : null;
      if (album) entries.push({ album, deleted: row.isDeleted === true });
      else unopened.push(row.id);
    });
    if (unopened.length > 0) log.warn(`${String(unopened.length)} collections did not open`);
    return { entries, unopened };
  }

  /**
   * Opens files of one collection in worker batches; the ids of those that did not open or are unusable. A row
   * naming another collection than the one whose diff (or trash entry) it came in is unusable: it would show in
   * an album that does not hold it, under a key that album never boxed.
   */
  private async openFiles(
    rows: readonly PhotoFile[],
    collection: Pick<Album, 'id' | 'key'>,
  ): Promise<{ files: GalleryFile[]; unopened: number[] }> {
    const files: GalleryFile[] = [];
    const unopened: number[] = [];
    const crypto = await cryptoWorker();
    for (const batch of chunks(rows, OPEN_BATCH)) {
      const opened: (OpenedFile | null)[] = await crypto.openFiles(batch.map(lockedFile), collection.key);
      batch.forEach((row, index) => {
        const result = opened[index];
        const file = result && row.collectionID === collection.id ? galleryFileOf(row, result) : null;
        if (file) files.push(file);
        else unopened.push(row.id);
      });
    }
    if (unopened.length > 0) log.warn(`${String(unopened.length)} files did not open`);
    return { files, unopened };
  }

  /**
   * Opens trash entries with the keys of the collections they name (deleted collections included). Only the
   * user's own collections: files are trashed from those (docs/protocol.md#trash), and a restore boxes the key
   * opened here, so an entry naming another's collection (whose key a server could have sealed) is left out.
   */
  private async openTrash(
    entries: readonly TrashEntry[],
    collections: ReadonlyMap<number, CollectionEntry>,
  ): Promise<TrashedFile[]> {
    const byCollection = new Map<number, TrashEntry[]>();
    for (const entry of entries) {
      const held = byCollection.get(entry.file.collectionID);
      if (held) held.push(entry);
      else byCollection.set(entry.file.collectionID, [entry]);
    }
    const trashed: TrashedFile[] = [];
    for (const [collectionID, held] of byCollection) {
      const album = collections.get(collectionID)?.album;
      if (album?.role !== 'OWNER') continue;
      const { files } = await this.openFiles(
        held.map((entry) => entry.file),
        album,
      );
      const deleteBy = new Map(held.map((entry) => [entry.file.id, entry.deleteBy]));
      for (const file of files) trashed.push({ file, deleteBy: deleteBy.get(file.id) ?? 0 });
    }
    return trashed;
  }

  private ensureOpen(): void {
    if (this.isClosed()) throw new LibraryError('closed');
  }

  /** (A method, so that a check after an await is not narrowed away by one before it.) */
  private isClosed(): boolean {
    return this.state.closed;
  }
}

/**
 * Pages of a photos diff (`{diff, hasMore}`, never splitting one change) through @ente/shared/sync/paged-diff.ts:
 * the next cursor is the page's latest time, and a page without `hasMore` is the last (no closing request). A
 * page with `hasMore` that does not move the cursor, or more pages than a run allows, fails the pull
 * (PagedDiffError), so a server cannot keep the client asking for ever.
 */
async function pullHasMore<Row>(options: {
  cursor: number;
  fetch: (sinceTime: number) => Promise<{ diff: Row[]; hasMore: boolean }>;
  updatedAt: (row: Row) => number;
  apply: (rows: Row[], cursor: number) => Promise<void>;
}): Promise<void> {
  await pullPages<{ row: Row; updatedAt: number }>({
    cursor: options.cursor,
    // The server never splits a change across pages: a page's latest time is always a safe cursor.
    limit: Number.POSITIVE_INFINITY,
    fetchPage: async (sinceTime) => {
      const page = await options.fetch(sinceTime);
      const diff = page.diff.map((row) => ({ row, updatedAt: options.updatedAt(row) }));
      return { diff, timestamp: 0, last: !page.hasMore };
    },
    applyPage: async ({ rows, cursor }) => {
      if (rows.length > 0)
        await options.apply(
          rows.map(({ row }) => row),
          cursor,
        );
    },
  });
}

function linkOf(link: api.PublicLink): AlbumLink {
  const { url, passwordEnabled, enableDownload, enableCollect, validTill, deviceLimit } = link;
  return { url, passwordEnabled, enableDownload, enableCollect, validTill, deviceLimit };
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
