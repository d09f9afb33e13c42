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

describe('a snapshot made from the one before', () => {
  /** Each event stepped and its snapshot made from the previous one, as the shell does. */
  function snapshots(events: LibraryEvent[]) {
    let state = initialState;
    let previous = { state, snapshot: snapshotOf(state) };
    const made = [];
    for (const event of events) {
      state = step(state, event).state;
      previous = { state, snapshot: snapshotOf(state, previous) };
      made.push(previous);
    }
    return made;
  }

  test('keeps the same arrays while the albums, files or trash did not change', () => {
    const [, withFiles, started, emptyPage, ended] = snapshots([
      liveAlbums(10, album(1, 10)),
      filesPage(1, [file(100, 1, 50), file(101, 1, 60)], [], 10),
      { type: 'pullStarted' },
      // A pull that found nothing new still replaces the state's maps.
      collections([], 20),
      { type: 'pullSucceeded' },
    ]);
    for (const later of [started, emptyPage, ended]) {
      expect(later?.snapshot.files).toBe(withFiles?.snapshot.files);
      expect(later?.snapshot.albums).toBe(withFiles?.snapshot.albums);
      expect(later?.snapshot.trash).toBe(withFiles?.snapshot.trash);
    }
    expect(started?.snapshot.syncing).toBe(true);
    expect(ended?.snapshot.syncing).toBe(false);
  });

  test('is the snapshot made from scratch, whatever the pages add, change, move or remove', () => {
    // A seeded generator: the same pages on every run.
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor(seed / 65536) % below;
    };
    const events: LibraryEvent[] = [liveAlbums(10, album(1, 10), album(2, 10, 'VIEWER'), album(3, 10))];
    for (let page = 0; page < 40; page++) {
      const collectionID = 1 + next(3);
      const changed = Array.from({ length: next(30) }, () => {
        const id = 1000 + next(200);
        // Few distinct times, so that ties are broken by id; some files edited.
        return file(id, collectionID, next(20), next(4) === 0 ? next(20) : undefined);
      });
      const removed = Array.from({ length: next(10) }, () => 1000 + next(200));
      events.push(filesPage(collectionID, changed, removed, 10 + page));
      if (page % 9 === 8) events.push(liveAlbums(10 + page, album(3, 10 + page, 'VIEWER')));
    }
    for (const { state, snapshot } of snapshots(events)) {
      const fromScratch = snapshotOf(state);
      expect(snapshot.files).toEqual(fromScratch.files);
      expect(snapshot.albums).toEqual(fromScratch.albums);
    }
    // It did sort something: the last snapshot holds files of several albums, some in two.
    const last = snapshots(events).at(-1)?.snapshot.files ?? [];
    expect(last.length).toBeGreaterThan(30);
    expect(last.some((f) => f.collectionIDs.length > 1)).toBe(true);
  });

  test('a file that stays in two albums stays the same object', () => {
    const [, , both, other] = snapshots([
      liveAlbums(10, album(1, 10), album(2, 10)),
      filesPage(1, [file(100, 1, 50)], [], 10),
      filesPage(2, [file(100, 2, 50)], [], 10),
      filesPage(2, [file(101, 2, 60)], [], 11),
    ]);
    const shared = both?.snapshot.files.find((f) => f.id === 100);
    expect(shared?.collectionIDs).toEqual([1, 2]);
    expect(other?.snapshot.files.find((f) => f.id === 100)).toBe(shared);
    expect(other?.snapshot.files.map((f) => f.id)).toEqual([101, 100]);
  });
});
