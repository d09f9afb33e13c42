/**
 * @jest-environment node
 */
// The library's pure core: events in, state and effects out; no timers, fakes or DOM.
import type { CachedEntity } from '@ente/shared/sync/entity-cache.ts';

import {
  collectionsToPull,
  copyToWrite,
  initialState,
  newestTime,
  snapshotOf,
  step,
  type LibraryEvent,
  type LibraryState,
} from './core.ts';
import { filesOfAlbum, timelineFiles } from './order.ts';
import { FileType, type Album, type GalleryFile, type TrashedFile } from './types.ts';

const album = (id: number, updationTime: number, role: Album['role'] = 'OWNER'): Album => ({
  id,
  name: `album ${String(id)}`,
  type: 'album',
  owner: { id: 7, email: 'joan@example.org', role: 'OWNER' },
  role,
  key: `key-${String(id)}`,
  sharees: [],
  updationTime,
});

const file = (id: number, collectionID: number, creationTime: number, editedTime?: number): GalleryFile => ({
  id,
  ownerID: 7,
  collectionIDs: [collectionID],
  key: `file-key-${String(id)}`,
  fileHeader: 'h',
  thumbnailHeader: 't',
  metadata: { title: `${String(id)}.jpg`, creationTime, modificationTime: creationTime, fileType: FileType.image },
  updationTime: 1,
  ...(editedTime === undefined ? {} : { editedTime }),
});

const row = (id: string, updatedAt: number): CachedEntity => ({ id, encryptedData: '{}', header: '', updatedAt });

function run(events: LibraryEvent[], from: LibraryState = initialState) {
  let state = from;
  const effects: string[] = [];
  for (const event of events) {
    const next = step(state, event);
    state = next.state;
    effects.push(...next.effects.map((effect) => effect.type));
  }
  return { state, effects };
}

const collections = (changed: { album: Album; deleted: boolean }[], cursor: number, unopened: number[] = []) =>
  ({ type: 'collectionsApplied', changed, unopened, cached: [], cursor }) as const;

/** A collections page of live albums. */
const liveAlbums = (cursor: number, ...albums: Album[]) =>
  collections(
    albums.map((a) => ({ album: a, deleted: false })),
    cursor,
  );

const filesPage = (collectionID: number, changed: GalleryFile[], removed: number[], cursor: number) =>
  ({ type: 'filesApplied', collectionID, changed, removed, cached: [], cursor }) as const;

test('pulls never overlap: a request during a run asks for exactly one more, which starts when the run ends', () => {
  const first = run([{ type: 'pullRequested' }]);
  expect(first.effects).toEqual(['pull']);
  const during = run([{ type: 'pullRequested' }, { type: 'pullRequested' }], first.state);
  expect(during.effects).toEqual([]);
  expect(during.state.pullAgain).toBe(true);
  const ended = run([{ type: 'pullSucceeded' }], during.state);
  expect(ended.effects).toEqual(['emit', 'pull']);
  const last = run([{ type: 'pullSucceeded' }], ended.state);
  expect(last.effects).toEqual(['emit']);
  expect(last.state).toMatchObject({ pulling: false, syncing: false, status: 'ready' });
});

test('the collections page saves its rows with its cursor, which never moves back', () => {
  const cached = [row('c/1', 10)];
  const { state, effects } = run([
    {
      type: 'collectionsApplied',
      changed: [{ album: album(1, 10), deleted: false }],
      unopened: [],
      cached,
      cursor: 10,
    },
  ]);
  expect(effects).toEqual(['save', 'emit']);
  expect(
    step(initialState, { type: 'collectionsApplied', changed: [], unopened: [], cached, cursor: 10 }).effects[0],
  ).toEqual({
    type: 'save',
    change: {
      put: [row('c/1', 10), { id: 'cursor/c', encryptedData: '', header: '', updatedAt: 10 }],
      remove: [],
      // Saved only over a cache that holds everything up to the cursor the page was pulled from (0: always), and
      // is not already past the page's own cursor (another tab pulled later and saved first).
      requires: { id: 'cursor/c', atLeast: 0, atMost: 10 },
    },
  });
  expect(run([collections([], 5)], state).state.cursors.collections).toBe(10);
});

test('only collections changed past their files’ cursor are pulled; deleted ones never', () => {
  const { state } = run([
    collections(
      [
        { album: album(3, 30), deleted: false },
        { album: album(1, 10), deleted: false },
        { album: album(2, 20), deleted: true },
      ],
      30,
    ),
    filesPage(1, [file(100, 1, 5)], [], 10),
  ]);
  expect(collectionsToPull(state)).toEqual([3]);
  const later = run([collections([{ album: album(1, 40), deleted: false }], 40)], state).state;
  expect(collectionsToPull(later)).toEqual([1, 3]);
});

test('files are one per id across albums, listing each album, newest first by edited time else creation time', () => {
  const { state } = run([
    liveAlbums(10, album(1, 10), album(2, 10)),
    filesPage(2, [file(100, 2, 50), file(101, 2, 10, 90)], [], 10),
    filesPage(1, [file(100, 1, 50), file(102, 1, 70)], [], 10),
  ]);
  const snapshot = snapshotOf(state);
  expect(snapshot.files.map((f) => [f.id, f.collectionIDs])).toEqual([
    [101, [2]],
    [102, [1]],
    [100, [1, 2]],
  ]);
  // The key is read from the album with the lowest id.
  expect(snapshot.files.find((f) => f.id === 100)?.collectionIDs[0]).toBe(1);
  expect(filesOfAlbum(snapshot, 1).map((f) => f.id)).toEqual([102, 100]);
});

test('a file’s copy comes from an album of the user’s own first; a copy under another key is left out', () => {
  const forged = { ...file(100, 1, 50), key: 'forged-key', metadata: { ...file(100, 1, 50).metadata, title: 'x' } };
  const { state } = run([
    liveAlbums(10, album(1, 10, 'COLLABORATOR'), album(2, 10), album(3, 10, 'VIEWER')),
    filesPage(1, [forged], [], 10),
    filesPage(2, [file(100, 2, 50)], [], 10),
    filesPage(3, [file(100, 3, 50)], [], 10),
  ]);
  const snapshot = snapshotOf(state);
  expect(snapshot.files.map((f) => [f.id, f.key, f.collectionIDs])).toEqual([[100, 'file-key-100', [2, 3]]]);
  expect(filesOfAlbum(snapshot, 1)).toEqual([]);
  // Writes take the key of the source album's row, and only when it is the shown copy's.
  expect(copyToWrite(state, 100)?.collectionIDs).toEqual([2]);
  expect(copyToWrite(state, 100, 3)?.key).toBe('file-key-100');
  expect(copyToWrite(state, 100, 1)).toBeUndefined();
  expect(copyToWrite(state, 101)).toBeUndefined();
  // Without an album of the user's own, the lowest id.
  const shared = run([liveAlbums(10, album(1, 10, 'VIEWER')), filesPage(1, [forged], [], 10)]).state;
  expect(copyToWrite(shared, 100)?.key).toBe('forged-key');
});

test('a file removed from one album stays in the other; removals are saved with the cursor', () => {
  const { state } = run([
    liveAlbums(10, album(1, 10), album(2, 10)),
    filesPage(1, [file(100, 1, 50)], [], 10),
    filesPage(2, [file(100, 2, 50)], [], 10),
  ]);
  const removed = step(state, filesPage(2, [], [100], 20));
  expect(removed.effects[0]).toEqual({
    type: 'save',
    change: {
      put: [{ id: 'cursor/f/2', encryptedData: '', header: '', updatedAt: 20 }],
      remove: ['f/2/100'],
      requires: { id: 'cursor/f/2', atLeast: 10, atMost: 20 },
    },
  });
  expect(snapshotOf(removed.state).files.map((f) => [f.id, f.collectionIDs])).toEqual([[100, [1]]]);
});

test('a deleted (or left) collection leaves the albums with its files, its cached rows and its cursor', () => {
  const { state } = run([
    collections(
      [
        { album: album(1, 10), deleted: false },
        { album: album(2, 10, 'VIEWER'), deleted: false },
      ],
      10,
    ),
    filesPage(2, [file(200, 2, 50), file(201, 2, 60)], [], 10),
  ]);
  const deleted = step(state, collections([{ album: album(2, 30, 'VIEWER'), deleted: true }], 30));
  const save = deleted.effects[0];
  expect(save?.type === 'save' && save.change.remove).toEqual(['f/2/200', 'f/2/201', 'cursor/f/2']);
  const snapshot = snapshotOf(deleted.state);
  expect(snapshot.albums.map((a) => a.id)).toEqual([1]);
  expect(snapshot.files).toEqual([]);
  // Its key stays (a trash entry may name it); a late page of its files is ignored.
  expect(deleted.state.collections.get(2)?.deleted).toBe(true);
  expect(step(deleted.state, filesPage(2, [file(202, 2, 1)], [], 40)).effects).toEqual([]);
});

test('a collection that no longer opens is dropped, with its files', () => {
  const { state } = run([
    collections([{ album: album(1, 10), deleted: false }], 10),
    filesPage(1, [file(1, 1, 1)], [], 10),
  ]);
  const next = step(state, collections([], 20, [1]));
  const save = next.effects[0];
  expect(save?.type === 'save' && save.change.remove).toEqual(['f/1/1', 'cursor/f/1', 'c/1']);
  expect(snapshotOf(next.state).albums).toEqual([]);
});

test('the trash: entries in, restored or deleted ones out, the latest deleteBy first', () => {
  const trashed = (id: number, deleteBy: number): TrashedFile => ({ file: file(id, 1, 1), deleteBy });
  const { state } = run([
    {
      type: 'trashApplied',
      changed: [trashed(1, 100), trashed(2, 300), trashed(3, 200)],
      removed: [],
      cached: [],
      cursor: 5,
    },
    { type: 'trashApplied', changed: [], removed: [3], cached: [], cursor: 6 },
  ]);
  expect(snapshotOf(state).trash.map((t) => t.file.id)).toEqual([2, 1]);
  expect(state.cursors.trash).toBe(6);
});

test('the cache shows the library at once; status stays ready when a later pull fails', () => {
  const { state, effects } = run([
    {
      type: 'cacheRead',
      collections: [{ album: album(1, 10), deleted: false }],
      files: [{ collectionID: 1, files: [file(1, 1, 1)] }],
      trash: [],
      cursors: { collections: 10, trash: 0, files: new Map([[1, 10]]) },
    },
    { type: 'pullRequested' },
    { type: 'pullStarted' },
    { type: 'pullFailed', offline: true },
  ]);
  expect(effects).toEqual(['emit', 'pull', 'emit', 'emit']);
  expect(snapshotOf(state)).toMatchObject({ status: 'ready', offline: true, failed: false, syncing: false });
  expect(snapshotOf(state).files).toHaveLength(1);
  expect(collectionsToPull(state)).toEqual([]);
});

test('a first pull that fails is a failed status; the next success clears it', () => {
  const failed = run([
    { type: 'pullRequested' },
    { type: 'pullStarted' },
    { type: 'pullFailed', offline: false },
  ]).state;
  expect(snapshotOf(failed)).toMatchObject({ status: 'failed', failed: true });
  const again = run([{ type: 'pullRequested' }, { type: 'pullSucceeded' }], failed).state;
  expect(snapshotOf(again)).toMatchObject({ status: 'ready', failed: false, offline: false });
});

test('a write tells the other tabs and pulls; closing forgets everything and ignores what follows', () => {
  expect(run([{ type: 'written' }]).effects).toEqual(['announce', 'pull']);
  const { state, effects } = run([collections([{ album: album(1, 10), deleted: false }], 10), { type: 'closed' }]);
  expect(effects.slice(-2)).toEqual(['stop', 'emit']);
  expect(state.closed).toBe(true);
  expect(state.collections.size).toBe(0);
  expect(run([{ type: 'pullRequested' }], state).effects).toEqual([]);
});

test('albums: the most recently changed first', () => {
  const { state } = run([
    collections(
      [
        { album: album(1, 10), deleted: false },
        { album: album(2, 20), deleted: false },
      ],
      20,
    ),
  ]);
  expect(snapshotOf(state).albums.map((a) => a.id)).toEqual([2, 1]);
});

test('hidden albums and every file they hold are left out of the albums and files pages read', () => {
  const hidden: Album = { ...album(2, 20), visibility: 'hidden' };
  const sharedHidden: Album = { ...album(3, 30, 'VIEWER'), visibility: 'hidden' };
  const archived: Album = { ...album(4, 40), visibility: 'archived' };
  const { state } = run([
    liveAlbums(40, album(1, 10), hidden, sharedHidden, archived),
    // 100 is in a visible album and in the hidden one: hidden everywhere (Ente hides a photo by moving it there).
    filesPage(1, [file(100, 1, 50), file(101, 1, 40)], [], 10),
    filesPage(2, [file(100, 2, 50), file(102, 2, 30)], [], 20),
    filesPage(3, [file(103, 3, 20)], [], 30),
    filesPage(4, [file(104, 4, 10)], [], 40),
  ]);
  const snapshot = snapshotOf(state);
  expect(snapshot.albums.map((a) => a.id)).toEqual([4, 1]);
  expect(snapshot.hiddenAlbums.map((a) => a.id)).toEqual([3, 2]);
  expect(snapshot.files.map((f) => f.id)).toEqual([101, 104]);
  expect(filesOfAlbum(snapshot, 1).map((f) => f.id)).toEqual([101]);
  expect(filesOfAlbum(snapshot, 2)).toEqual([]);
  // The timeline leaves out the archived album's files (and archived files), which stay in their album.
  const archivedFile: GalleryFile = { ...file(105, 1, 5), visibility: 'archived' };
  const withArchivedFile = snapshotOf(run([filesPage(1, [archivedFile], [], 11)], state).state);
  expect(timelineFiles(withArchivedFile).map((f) => f.id)).toEqual([101]);
  expect(filesOfAlbum(withArchivedFile, 4).map((f) => f.id)).toEqual([104]);
});

test('the collections cursor is the newest row time, even of an answer too long to spread into arguments', () => {
  expect(newestTime(10, [{ updationTime: 5 }, { updationTime: 30 }, { updationTime: 20 }])).toBe(30);
  expect(newestTime(10, [])).toBe(10);
  const huge = Array.from({ length: 300_000 }, (_, i) => ({ updationTime: i }));
  expect(newestTime(5, huge)).toBe(299_999);
});
