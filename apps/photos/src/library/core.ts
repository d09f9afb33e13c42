// The library's pure core: `step(state, event)` answers the next state and the effects the shell
// (library.ts) must run: emit a snapshot, pull, save a change to the cache, tell the other tabs, stop.
// No I/O, no clock, no promises: what the albums, files, trash, cursors and status become is decided here,
// and tested without timers, fakes or a DOM (core.test.ts). See: [Note: Photos library sync] in library.ts.
import type { ShellEffect } from '@ente/shared/sync/core-shell.ts';
import type { CachedEntity, EntityCacheChange } from '@ente/shared/sync/entity-cache.ts';

import { cacheIds } from './cache-ids.ts';
import { newestFirst } from './order.ts';
import type { Album, GalleryFile, TrashedFile } from './types.ts';

/** A collection as the library keeps it: deleted ones stay, without their files, so that their keys open the trash. */
export interface CollectionEntry {
  album: Album;
  deleted: boolean;
}

export interface LibraryState {
  /** Every collection seen, by id. Maps are replaced (never changed in place) when they change. */
  collections: ReadonlyMap<number, CollectionEntry>;
  /** Each live collection's files, by collection id then file id (a file in two albums is in both). */
  files: ReadonlyMap<number, ReadonlyMap<number, GalleryFile>>;
  trash: ReadonlyMap<number, TrashedFile>;
  /** The `sinceTime` of the next collections list, trash diff, and each collection's diff. */
  cursors: { collections: number; trash: number; files: ReadonlyMap<number, number> };
  status: 'loading' | 'ready' | 'failed';
  /** A pull run is under way (shown). */
  syncing: boolean;
  /** The browser is offline, or the last request got no answer. */
  offline: boolean;
  /** The last pull failed (the server refused or answered wrongly). */
  failed: boolean;
  /** A pull run is under way (from the request to its end, reruns included). */
  pulling: boolean;
  /** Something asked for a pull while one ran: one more follows it. */
  pullAgain: boolean;
  closed: boolean;
}

/** What the cache held, opened by the shell. */
export interface CachedLibrary {
  collections: readonly CollectionEntry[];
  files: readonly { collectionID: number; files: readonly GalleryFile[] }[];
  trash: readonly TrashedFile[];
  cursors: { collections: number; trash: number; files: ReadonlyMap<number, number> };
}

export type LibraryEvent =
  /** The cache's rows, opened (only those that opened). */
  | ({ type: 'cacheRead' } & CachedLibrary)
  /** Something wants a pull (open, a write, another tab, the network back, visibility, the timer). */
  | { type: 'pullRequested' }
  /** The browser was offline when the pull was due: no request is made. */
  | { type: 'pullSkippedOffline' }
  | { type: 'pullStarted' }
  /** The collections changed since the cursor: those that opened, and the ids of those that did not. */
  | {
      type: 'collectionsApplied';
      changed: readonly CollectionEntry[];
      unopened: readonly number[];
      cached: readonly CachedEntity[];
      cursor: number;
    }
  /** A page of one collection's diff: its live files that opened, the ids that left it (or did not open). */
  | {
      type: 'filesApplied';
      collectionID: number;
      changed: readonly GalleryFile[];
      removed: readonly number[];
      cached: readonly CachedEntity[];
      cursor: number;
    }
  /** A page of the trash diff: entries in the trash, and the ids that left it (restored, deleted for ever). */
  | {
      type: 'trashApplied';
      changed: readonly TrashedFile[];
      removed: readonly number[];
      cached: readonly CachedEntity[];
      cursor: number;
    }
  | { type: 'pullSucceeded' }
  /** `offline`: a request got no answer. */
  | { type: 'pullFailed'; offline: boolean }
  | { type: 'wentOffline' }
  /** A write of this tab went through: pull what it changed, and tell the other tabs. */
  | { type: 'written' }
  | { type: 'closed' };

/** The shell's effects (@ente/shared/sync/core-shell.ts): emit, pull, save, announce, stop (forget everything). */
export type LibraryEffect = ShellEffect<EntityCacheChange>;

export interface Step {
  state: LibraryState;
  effects: LibraryEffect[];
}

export const initialState: LibraryState = {
  collections: new Map(),
  files: new Map(),
  trash: new Map(),
  cursors: { collections: 0, trash: 0, files: new Map() },
  status: 'loading',
  syncing: false,
  offline: false,
  failed: false,
  pulling: false,
  pullAgain: false,
  closed: false,
};

const emit: LibraryEffect = { type: 'emit' };

/** A cursor record: an entity whose `updatedAt` is the cursor, so that the cache never moves it back. */
const cursorRecord = (id: string, cursor: number): CachedEntity => ({
  id,
  encryptedData: '',
  header: '',
  updatedAt: cursor,
});

export function step(state: LibraryState, event: LibraryEvent): Step {
  if (state.closed) return { state, effects: [] };
  switch (event.type) {
    case 'cacheRead': {
      const collections = new Map(state.collections);
      for (const entry of event.collections) collections.set(entry.album.id, entry);
      const files = new Map(state.files);
      for (const { collectionID, files: held } of event.files) {
        if (collections.get(collectionID)?.deleted !== false) continue;
        files.set(collectionID, new Map(held.map((file) => [file.id, file])));
      }
      const trash = new Map(event.trash.map((entry) => [entry.file.id, entry]));
      const next = { ...state, collections, files, trash, cursors: event.cursors, status: 'ready' as const };
      return { state: next, effects: [emit] };
    }
    case 'pullRequested':
      if (state.pulling) return { state: { ...state, pullAgain: true }, effects: [] };
      return { state: { ...state, pulling: true, pullAgain: false }, effects: [{ type: 'pull' }] };
    case 'pullSkippedOffline':
      return { state: { ...state, pulling: false, pullAgain: false, offline: true, syncing: false }, effects: [emit] };
    case 'pullStarted':
      return { state: { ...state, syncing: true }, effects: [emit] };
    case 'collectionsApplied':
      return collectionsApplied(state, event);
    case 'filesApplied':
      return filesApplied(state, event);
    case 'trashApplied': {
      const trash = new Map(state.trash);
      for (const id of event.removed) trash.delete(id);
      for (const entry of event.changed) trash.set(entry.file.id, entry);
      const cursors = { ...state.cursors, trash: Math.max(state.cursors.trash, event.cursor) };
      const change: EntityCacheChange = {
        put: [...event.cached, cursorRecord(cacheIds.trashCursor, cursors.trash)],
        remove: event.removed.map(cacheIds.trashEntry),
        requires: { id: cacheIds.trashCursor, atLeast: state.cursors.trash, atMost: cursors.trash },
      };
      return { state: { ...state, trash, cursors }, effects: [{ type: 'save', change }, emit] };
    }
    case 'pullSucceeded':
      return runEnded({ ...state, status: 'ready', offline: false, failed: false });
    case 'pullFailed':
      return runEnded({
        ...state,
        status: state.status === 'loading' ? 'failed' : state.status,
        offline: event.offline,
        failed: !event.offline,
      });
    case 'wentOffline':
      return { state: { ...state, offline: true }, effects: [emit] };
    case 'written':
      return withPull(state);
    case 'closed':
      return {
        state: { ...initialState, collections: new Map(), files: new Map(), trash: new Map(), closed: true },
        effects: [{ type: 'stop' }, emit],
      };
  }
}

function withPull(state: LibraryState): Step {
  const pulled = step(state, { type: 'pullRequested' });
  return { state: pulled.state, effects: [{ type: 'announce' }, ...pulled.effects] };
}

function runEnded(state: LibraryState): Step {
  if (state.pullAgain) {
    return { state: { ...state, pullAgain: false }, effects: [emit, { type: 'pull' }] };
  }
  return { state: { ...state, pulling: false, syncing: false }, effects: [emit] };
}

function collectionsApplied(state: LibraryState, event: Extract<LibraryEvent, { type: 'collectionsApplied' }>): Step {
  const collections = new Map(state.collections);
  const files = new Map(state.files);
  const fileCursors = new Map(state.cursors.files);
  const remove: string[] = [];
  const dropFiles = (collectionID: number) => {
    for (const fileID of files.get(collectionID)?.keys() ?? []) remove.push(cacheIds.file(collectionID, fileID));
    remove.push(cacheIds.filesCursor(collectionID));
    files.delete(collectionID);
    fileCursors.delete(collectionID);
  };
  for (const entry of event.changed) {
    collections.set(entry.album.id, entry);
    if (entry.deleted) dropFiles(entry.album.id);
  }
  for (const id of event.unopened) {
    if (collections.delete(id)) dropFiles(id);
    remove.push(cacheIds.collection(id));
  }
  const cursor = Math.max(state.cursors.collections, event.cursor);
  const cursors = { ...state.cursors, collections: cursor, files: fileCursors };
  const change: EntityCacheChange = {
    put: [...event.cached, cursorRecord(cacheIds.collectionsCursor, cursor)],
    remove,
    requires: { id: cacheIds.collectionsCursor, atLeast: state.cursors.collections, atMost: cursor },
  };
  return { state: { ...state, collections, files, cursors }, effects: [{ type: 'save', change }, emit] };
}

function filesApplied(state: LibraryState, event: Extract<LibraryEvent, { type: 'filesApplied' }>): Step {
  const id = event.collectionID;
  // A page of a collection deleted meanwhile (another pull, another tab): nothing of it is kept.
  if (state.collections.get(id)?.deleted !== false) return { state, effects: [] };
  const held = new Map(state.files.get(id));
  for (const fileID of event.removed) held.delete(fileID);
  for (const file of event.changed) held.set(file.id, file);
  const files = new Map(state.files).set(id, held);
  const cursor = Math.max(state.cursors.files.get(id) ?? 0, event.cursor);
  const cursors = { ...state.cursors, files: new Map(state.cursors.files).set(id, cursor) };
  const change: EntityCacheChange = {
    put: [...event.cached, cursorRecord(cacheIds.filesCursor(id), cursor)],
    remove: event.removed.map((fileID) => cacheIds.file(id, fileID)),
    requires: { id: cacheIds.filesCursor(id), atLeast: state.cursors.files.get(id) ?? 0, atMost: cursor },
  };
  return { state: { ...state, files, cursors }, effects: [{ type: 'save', change }, emit] };
}

/** The newest of `cursor` and the rows' times, by a loop: a spread of a huge answer would throw RangeError. */
export function newestTime(cursor: number, rows: readonly { updationTime: number }[]): number {
  let newest = cursor;
  for (const row of rows) if (row.updationTime > newest) newest = row.updationTime;
  return newest;
}

/**
 * The live collections whose files may have changed: a collection's `updationTime` is at least that of every
 * change to its files (docs/protocol.md#photos, the one diff rule), so one not newer than its files' cursor is skipped.
 */
export function collectionsToPull(state: LibraryState): number[] {
  const ids: number[] = [];
  for (const [id, { album, deleted }] of state.collections) {
    if (!deleted && album.updationTime > (state.cursors.files.get(id) ?? 0)) ids.push(id);
  }
  return ids.sort((a, b) => a - b);
}

/** What pages read. Hidden albums and their files are left out of `albums` and `files` (see `isHidden`). */
export interface LibrarySnapshot {
  /** The live albums, most recently changed first; hidden ones are in `hiddenAlbums` only. */
  albums: readonly Album[];
  /**
   * The live albums hidden for the user, in the same order: no page lists them; a restore from the trash still
   * finds them, so that a hidden photo goes back into its hidden album rather than into "uncategorized".
   */
  hiddenAlbums: readonly Album[];
  /**
   * One per file id across albums (`collectionIDs` lists them), newest first by editedTime ?? creationTime;
   * a file in any hidden album is left out (it is hidden wherever else it is).
   */
  files: readonly GalleryFile[];
  /** Most recently trashed first (the latest `deleteBy` first). */
  trash: readonly TrashedFile[];
  status: LibraryState['status'];
  syncing: boolean;
  offline: boolean;
  failed: boolean;
}

/**
 * An album hidden for the user, as Ente's clients decide it: the owner's magic metadata (or, for an album shared
 * with them, the user's own shared magic metadata) says `visibility: 2` (model.ts reads the one that applies).
 * Ente's clients hide a single photo by moving it into such an album (the default ".hidden" one), so a file in
 * any hidden album is hidden, whichever other albums hold it.
 */
export const isHidden = (album: Album): boolean => album.visibility === 'hidden';

/**
 * The snapshot of `state`. With `previous` (the one published before, as the shell passes it) what did not change
 * is the same arrays as before, so that pages keep their memoized work (the grid's days and rows): the albums and
 * files as they were while neither the collections nor the files changed, the trash while it did not; and when the
 * files did change, those that stayed the same objects keep their order and only the others are sorted in.
 */
export function snapshotOf(
  state: LibraryState,
  previous?: { state: LibraryState; snapshot: LibrarySnapshot },
): LibrarySnapshot {
  const before = previous?.state;
  const was = previous?.snapshot;
  const { albums, hiddenAlbums, files } =
    before && was && before.collections === state.collections && before.files === state.files
      ? was
      : albumsAndFiles(state, was);
  const trash =
    before && was && before.trash === state.trash
      ? was.trash
      : [...state.trash.values()].sort((a, b) => b.deleteBy - a.deleteBy || b.file.id - a.file.id);
  const { status, syncing, offline, failed } = state;
  return { albums, hiddenAlbums, files, trash, status, syncing, offline, failed };
}

function albumsAndFiles(
  state: LibraryState,
  was: LibrarySnapshot | undefined,
): Pick<LibrarySnapshot, 'albums' | 'hiddenAlbums' | 'files'> {
  const live = [...state.collections.values()].filter((entry) => !entry.deleted).map((entry) => entry.album);
  live.sort((a, b) => b.updationTime - a.updationTime || a.id - b.id);
  const albums = sameItems(
    live.filter((album) => !isHidden(album)),
    was?.albums,
  );
  const hiddenAlbums = sameItems(live.filter(isHidden), was?.hiddenAlbums);
  const hiddenFiles = new Set<number>();
  for (const album of hiddenAlbums)
    for (const fileID of state.files.get(album.id)?.keys() ?? []) hiddenFiles.add(fileID);
  // Each file's first copy (see albumsByTrust), and the later albums holding it under the same key.
  const firstCopy = new Map<number, GalleryFile>();
  const alsoIn = new Map<number, number[]>();
  for (const id of albumsByTrust(state)) {
    for (const file of state.files.get(id)?.values() ?? []) {
      if (hiddenFiles.has(file.id)) continue;
      const seen = firstCopy.get(file.id);
      if (!seen) firstCopy.set(file.id, file);
      // A copy under another key is not the same file's: it is left out (see albumsByTrust).
      else if (seen.key === file.key && !seen.collectionIDs.includes(id)) {
        const more = alsoIn.get(file.id);
        if (more) more.push(id);
        else alsoIn.set(file.id, [id]);
      }
    }
  }
  const files: GalleryFile[] = [];
  for (const [id, file] of firstCopy) {
    const more = alsoIn.get(id);
    files.push(more ? inAlbums(file, more) : file);
  }
  return { albums, hiddenAlbums, files: sortedLike(files, was?.files) };
}

/** `next`, or `previous` when it holds the same items in the same order (so that it stays the same array). */
function sameItems<T>(next: T[], previous: readonly T[] | undefined): readonly T[] {
  return previous?.length === next.length && next.every((item, index) => previous[index] === item) ? previous : next;
}

/** A file held by more albums than its first copy's: made once per copy and albums (the same object next time). */
const merged = new WeakMap<GalleryFile, GalleryFile>();

function inAlbums(file: GalleryFile, more: readonly number[]): GalleryFile {
  const collectionIDs = [...file.collectionIDs, ...more];
  const made = merged.get(file);
  if (
    made?.collectionIDs.length === collectionIDs.length &&
    made.collectionIDs.every((id, i) => id === collectionIDs[i])
  )
    return made;
  const next = { ...file, collectionIDs };
  merged.set(file, next);
  return next;
}

/**
 * `files` newest first (`newestFirst`, a total order). The files of `previous` (sorted the same way) that are still
 * there as the same objects keep their order and only the others are sorted and merged in; `previous` itself when
 * nothing changed.
 */
function sortedLike(
  files: readonly GalleryFile[],
  previous: readonly GalleryFile[] | undefined,
): readonly GalleryFile[] {
  if (!previous || previous.length === 0) return [...files].sort(newestFirst);
  const current = new Set(files);
  const kept = previous.filter((file) => current.has(file));
  if (kept.length === previous.length && kept.length === files.length) return previous;
  const stayed = new Set(kept);
  const added = files.filter((file) => !stayed.has(file)).sort(newestFirst);
  if (added.length === 0) return kept;
  const out: GalleryFile[] = [];
  let a = 0;
  for (const file of kept) {
    for (let next = added[a]; next && newestFirst(next, file) < 0; next = added[++a]) out.push(next);
    out.push(file);
  }
  // A loop, not a spread: a spread of a huge list would throw RangeError.
  for (const file of added.slice(a)) out.push(file);
  return out;
}

/**
 * The live albums in the order a file's copy is chosen from: the user's own first (their key opened under the
 * masterKey, so only the user's clients wrote the rows that open with it), then those shared with them; each
 * group by id, so that the choice does not depend on timing. A file's key, headers and metadata come from its
 * first copy; a copy in a later album under another key is left out of the file (a file has one key, so such a
 * copy is forged or corrupt), so that no write takes one album's key for another. See docs/decisions.md
 * "A file is shown once".
 */
function albumsByTrust(state: LibraryState): number[] {
  const own = (id: number) => (state.collections.get(id)?.album.role === 'OWNER' ? 0 : 1);
  return [...state.files.keys()].sort((a, b) => own(a) - own(b) || a - b);
}

/**
 * The copy of a file whose key a write boxes for another album: `albumID`'s row when given (a move's source),
 * else the copy the snapshot shows; undefined when there is none, or when `albumID`'s row holds another key
 * than the shown copy.
 */
export function copyToWrite(state: LibraryState, fileID: number, albumID?: number): GalleryFile | undefined {
  let shown: GalleryFile | undefined;
  for (const id of albumsByTrust(state)) {
    shown = state.files.get(id)?.get(fileID);
    if (shown) break;
  }
  if (albumID === undefined || !shown) return shown;
  const held = state.files.get(albumID)?.get(fileID);
  return held?.key === shown.key ? held : undefined;
}
