// The library against an in-memory photos server (testing/fake-photos-server.ts), with IndexedDB from
// fake-indexeddb and the crypto API in-process: the rows are encrypted here as another client writes them.
import 'fake-indexeddb/auto';

import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { cryptoWorker, type CryptoRemote } from '@ente/crypto/client.ts';
import { storagePlaces } from '@ente/shared/storage/registry.ts';

import { photosLibraryDB } from '../storage.ts';
import { cacheIds } from './cache-ids.ts';
import { libraryCache } from './library-cache.ts';
import { filesOfAlbum, LibraryError, openLibrary, shareableLink, type Library } from './library.ts';
import { apiOrigin, fakeEmail, FakePhotosServer, fakeUserID } from './testing/fake-photos-server.ts';
import { signIn, signOut } from './testing/signed-in.ts';

const msw = setupServer();
let fake: FakePhotosServer;
let crypto: CryptoRemote;
let masterKey: string;
let publicKey: string;
const opened: Library[] = [];
/** The key of each file uploaded by `upload`. */
const fileKeys = new Map<number, string>();

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'error' });
  crypto = await cryptoWorker();
});
beforeEach(async () => {
  fake = new FakePhotosServer();
  msw.resetHandlers(...fake.handlers);
  ({ masterKey, publicKey } = await signIn(crypto));
});
afterEach(async () => {
  for (const library of opened.splice(0)) library.close();
  await signOut();
});
afterAll(() => msw.close());

/** Opens the library and waits for its first pull. */
async function open(): Promise<Library> {
  const library = await openLibrary({ syncIntervalMs: 3_600_000 });
  opened.push(library);
  await library.refresh();
  return library;
}

const owner = { id: fakeUserID, email: fakeEmail, name: '', role: 'OWNER' };
const collectionFields = { name: '', type: 'album', attributes: { version: 0 }, publicURLs: [], app: 'photos' };

/** An album of the user's, written by another client: its key (b64) and id. */
async function ownAlbum(name: string): Promise<{ id: number; key: string }> {
  const { key, ...fields } = await crypto.newCollectionKeys(name, masterKey);
  const row = fake.putCollection({ ...collectionFields, ...fields, id: fake.id(), owner, sharees: [] });
  return { id: row.id, key };
}

/** An album of user 8 shared with the user: its key sealed to the user's public key. */
async function sharedAlbum(name: string): Promise<{ id: number; key: string }> {
  const key = await crypto.generateKey();
  const row = fake.putCollection({
    ...collectionFields,
    ...(await crypto.encryptCollectionName(name, key)),
    id: fake.id(),
    owner: { id: 8, email: 'ann@example.org', name: '', role: 'OWNER' },
    encryptedKey: await crypto.sealCollectionKey(key, publicKey),
    sharees: [{ id: fakeUserID, email: fakeEmail, name: '', role: 'VIEWER' }],
  });
  return { id: row.id, key };
}

/** A file uploaded into an album by another client: its id. */
async function upload(album: { id: number; key: string }, title: string, creationTime: number, id = fake.id()) {
  const fileKey = await crypto.generateKey();
  fileKeys.set(id, fileKey);
  const [boxed] = await crypto.boxFileKeys([{ id, key: fileKey }], album.key);
  if (!boxed) throw new Error('not boxed');
  const metadata = { title, creationTime, modificationTime: creationTime, fileType: 0 };
  const blob = await crypto.encryptBlobText(JSON.stringify(metadata), fileKey);
  const header = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  fake.putFile({
    id,
    ownerID: fakeUserID,
    collectionID: album.id,
    collectionOwnerID: fakeUserID,
    encryptedKey: boxed.encryptedKey,
    keyDecryptionNonce: boxed.keyDecryptionNonce,
    file: { decryptionHeader: header, size: 100 },
    thumbnail: { decryptionHeader: header, size: 10 },
    metadata: { encryptedData: blob.encryptedData, decryptionHeader: blob.header, size: 0 },
    info: { fileSize: 100, thumbSize: 10 },
  });
  return id;
}

const titles = (library: Library) => library.snapshot().files.map((file) => file.metadata.title);

/** Closes `library` and opens it again from the cache alone (no server answers). */
async function reloadOffline(library: Library): Promise<Library> {
  library.close();
  fake.offline = true;
  const reloaded = await openLibrary({ syncIntervalMs: 3_600_000 });
  opened.push(reloaded);
  return reloaded;
}

test('the first pull: albums (own and shared) and their files decrypted, page by page, one per file id', async () => {
  const holidays = await ownAlbum('Holidays');
  const shared = await sharedAlbum('Ann’s garden');
  await upload(holidays, 'a.jpg', 1_000);
  const both = await upload(holidays, 'b.jpg', 3_000);
  await upload(holidays, 'c.jpg', 2_000);
  await upload(shared, 'rose.jpg', 4_000);
  // The same file in a second album of the user's (its key boxed for that album).
  const travel = await ownAlbum('Travel');
  const [boxed] = await crypto.boxFileKeys([{ id: both, key: fileKeys.get(both) ?? '' }], travel.key);
  fake.putFile({ ...fake.files.get(holidays.id)!.get(both)!, ...boxed!, collectionID: travel.id });

  const library = await open();
  const snapshot = library.snapshot();
  expect(snapshot.status).toBe('ready');
  expect(snapshot.albums.map((album) => [album.name, album.role])).toEqual([
    ['Travel', 'OWNER'],
    ['Ann’s garden', 'VIEWER'],
    ['Holidays', 'OWNER'],
  ]);
  expect(titles(library)).toEqual(['rose.jpg', 'b.jpg', 'c.jpg', 'a.jpg']);
  expect(snapshot.files.find((f) => f.id === both)?.collectionIDs).toEqual([holidays.id, travel.id]);
  expect(filesOfAlbum(snapshot, travel.id).map((f) => f.metadata.title)).toEqual(['b.jpg']);
  // Holidays' three files came in two pages (pageSize 2).
  const holidaysPages = fake.requests.filter(
    (r) => r.path === '/collections/v2/diff' && r.query.collectionID === String(holidays.id),
  );
  expect(holidaysPages.length).toBeGreaterThanOrEqual(2);
});

test('a reload shows the cached library before the network answers; then only changed albums are pulled', async () => {
  const holidays = await ownAlbum('Holidays');
  const garden = await ownAlbum('Garden');
  const first = await upload(holidays, 'a.jpg', 1_000);
  await upload(garden, 'tulip.jpg', 2_000);
  const reloaded = await reloadOffline(await open());
  expect(reloaded.snapshot().status).toBe('ready');
  expect(titles(reloaded)).toEqual(['tulip.jpg', 'a.jpg']);
  await reloaded.refresh();
  expect(reloaded.snapshot()).toMatchObject({ status: 'ready', offline: true });
  expect(titles(reloaded)).toEqual(['tulip.jpg', 'a.jpg']);

  // Another client removes a file from Holidays: only Holidays' diff is asked for.
  fake.offline = false;
  fake.removeFile(holidays.id, first);
  fake.requests.length = 0;
  await reloaded.refresh();
  expect(titles(reloaded)).toEqual(['tulip.jpg']);
  const diffs = fake.requests.filter((r) => r.path === '/collections/v2/diff').map((r) => Number(r.query.collectionID));
  expect(diffs).toEqual([holidays.id]);
  expect(reloaded.snapshot()).toMatchObject({ offline: false, failed: false });
});

test('an album renamed (its time moved, no file changed) has its diff asked for once, not at every pull', async () => {
  const holidays = await ownAlbum('Holidays');
  await upload(holidays, 'a.jpg', 1_000);
  const library = await open();
  await library.renameAlbum(holidays.id, 'Holidays 2026');
  fake.requests.length = 0;
  await library.refresh();
  await library.refresh();
  expect(fake.requests.filter((r) => r.path === '/collections/v2/diff')).toEqual([]);
  // A reload from the cache does not ask for it again either.
  library.close();
  const reloaded = await open();
  expect(fake.requests.filter((r) => r.path === '/collections/v2/diff')).toEqual([]);
  expect(titles(reloaded)).toEqual(['a.jpg']);
});

test('a row of one album’s diff that names another album is left out, not shown in the album it names', async () => {
  const holidays = await ownAlbum('Holidays');
  const [id] = [await upload(holidays, 'a.jpg', 1_000), await upload(holidays, 'b.jpg', 2_000)];
  const garden = await ownAlbum('Garden');
  // A server (or its bug) relabels a row of Holidays as Garden's; it still opens with Holidays' key.
  const row = fake.files.get(holidays.id)!.get(id)!;
  fake.files.get(holidays.id)!.set(id, { ...row, collectionID: garden.id });
  const library = await open();
  expect(filesOfAlbum(library.snapshot(), garden.id)).toEqual([]);
  expect(library.snapshot().files.map((file) => [file.metadata.title, file.collectionIDs])).toEqual([
    ['b.jpg', [holidays.id]],
  ]);
});

test('a cache emptied by another tab (its save failed) is not written over with cursors past what it holds', async () => {
  const holidays = await ownAlbum('Holidays');
  await upload(holidays, 'a.jpg', 1_000);
  const library = await open();
  // Another tab's save failed: it empties the cache (library.ts save) and stops writing it.
  await libraryCache.clear();
  const garden = await ownAlbum('Garden');
  await upload(garden, 'tulip.jpg', 2_000);
  await upload(holidays, 'b.jpg', 3_000);
  await library.refresh();
  // This tab's later pages did not make the cache claim what it lost: a reload shows everything.
  const reloaded = await reloadOffline(library);
  fake.offline = false;
  await reloaded.refresh();
  expect(reloaded.snapshot().albums.map((album) => album.name)).toEqual(['Holidays', 'Garden']);
  expect(titles(reloaded)).toEqual(['b.jpg', 'tulip.jpg', 'a.jpg']);
});

test('a page older than what another tab already saved does not bring a deleted file back into the cache', async () => {
  const holidays = await ownAlbum('Holidays');
  await upload(holidays, 'a.jpg', 1_000);
  const library = await open();
  const gone = await upload(holidays, 'b.jpg', 2_000);
  // This tab asks for Holidays' diff before b.jpg is deleted…
  const stale = { diff: [fake.files.get(holidays.id)!.get(gone)!], hasMore: false };
  fake.removeFile(holidays.id, gone);
  const deletedAt = fake.files.get(holidays.id)!.get(gone)!.updationTime;
  // …and another tab, which pulled the deletion, saved it first.
  await libraryCache.saveChange(fakeUserID, {
    put: [{ id: cacheIds.filesCursor(holidays.id), encryptedData: '', header: '', updatedAt: deletedAt }],
    remove: [cacheIds.file(holidays.id, gone)],
  });
  msw.use(http.get(`${apiOrigin}/collections/v2/diff`, () => HttpResponse.json(stale), { once: true }));
  await library.refresh();
  expect(titles(await reloadOffline(library))).toEqual(['a.jpg']);
});

test('a cached row that no longer parses is pulled again, not lost behind its cursor', async () => {
  const holidays = await ownAlbum('Holidays');
  const garden = await ownAlbum('Garden');
  const first = await upload(holidays, 'a.jpg', 1_000);
  await upload(holidays, 'b.jpg', 2_000);
  await upload(garden, 'tulip.jpg', 3_000);
  (await open()).close();
  // What a schema the app has since changed (or a damaged record) reads as: the same record, unreadable.
  const unreadable = (id: string, updatedAt: number) => ({ id, encryptedData: '{}', header: '', updatedAt });
  const fileRow = fake.files.get(holidays.id)!.get(first)!;
  await libraryCache.saveChange(fakeUserID, {
    put: [unreadable(cacheIds.file(holidays.id, first), fileRow.updationTime)],
  });

  const reloaded = await open();
  expect(titles(reloaded)).toEqual(['tulip.jpg', 'b.jpg', 'a.jpg']);
  reloaded.close();

  const gardenRow = fake.collections.get(garden.id)!;
  await libraryCache.saveChange(fakeUserID, {
    put: [unreadable(cacheIds.collection(garden.id), gardenRow.updationTime)],
  });
  const again = await open();
  expect(
    again
      .snapshot()
      .albums.map((album) => album.name)
      .sort(),
  ).toEqual(['Garden', 'Holidays']);
  expect(titles(again)).toEqual(['tulip.jpg', 'b.jpg', 'a.jpg']);
});

test('a diff page with hasMore that does not move the cursor fails the pull instead of asking for ever', async () => {
  const holidays = await ownAlbum('Holidays');
  const id = await upload(holidays, 'a.jpg', 1_000);
  const row = { ...fake.files.get(holidays.id)!.get(id)!, updationTime: 1 };
  const asked: string[] = [];
  // Always the same row, at time 1, and always "more to come".
  msw.use(
    http.get(`${apiOrigin}/collections/v2/diff`, ({ request }) => {
      asked.push(new URL(request.url).searchParams.get('sinceTime') ?? '');
      return HttpResponse.json({ diff: [row], hasMore: true });
    }),
  );
  const library = await open();
  expect(library.snapshot()).toMatchObject({ failed: true, syncing: false });
  // Each pull run (opening's and refresh's) asked for the stuck page once, then gave up.
  expect([...new Set(asked)]).toEqual(['0', '1']);
  expect(asked.length).toBeLessThanOrEqual(3);
  // The page that moved the cursor was applied; a write's pull ends too.
  expect(titles(library)).toEqual(['a.jpg']);
  await expect(library.createAlbum('Trip')).resolves.toEqual(expect.any(Number));
});

test('albums: create, rename, add, move, remove; every file key boxed for the target album', async () => {
  const holidays = await ownAlbum('Holidays');
  const id = await upload(holidays, 'a.jpg', 1_000);
  const library = await open();

  const tripID = await library.createAlbum('Trip');
  expect(library.snapshot().albums.find((album) => album.id === tripID)?.name).toBe('Trip');
  await library.renameAlbum(tripID, 'Trip 2026');
  expect(library.snapshot().albums.find((album) => album.id === tripID)?.name).toBe('Trip 2026');

  const file = library.snapshot().files[0]!;
  await library.addToAlbum(tripID, [file]);
  expect(library.snapshot().files.map((f) => f.collectionIDs)).toEqual([[holidays.id, tripID]]);
  // What the server holds for Trip opens with Trip's key, as another client reads it.
  const trip = library.snapshot().albums.find((album) => album.id === tripID)!;
  const row = fake.files.get(tripID)!.get(id)!;
  expect(await crypto.decryptBox(row.encryptedKey, row.keyDecryptionNonce, trip.key)).toBe(file.key);

  const albumOnly = await library.createAlbum('Only');
  await library.moveToAlbum(tripID, albumOnly, [file]);
  expect(library.snapshot().files[0]?.collectionIDs).toEqual([holidays.id, albumOnly]);
  await library.removeFromAlbum(albumOnly, [id]);
  expect(library.snapshot().files[0]?.collectionIDs).toEqual([holidays.id]);

  await library.deleteAlbum(tripID, { keepFiles: true });
  expect(library.snapshot().albums.map((album) => album.id)).not.toContain(tripID);
  await expect(library.renameAlbum(tripID, 'gone')).rejects.toEqual(new LibraryError('albumNotFound'));
});

test('a write that fails still pulls what it may have changed (a batch through, an answer lost) and tells the other tabs', async () => {
  const holidays = await ownAlbum('Holidays');
  const trip = await ownAlbum('Trip');
  const id = await upload(holidays, 'a.jpg', 1_000);
  const library = await open();
  // The server adds the file, then its answer is lost behind a proxy's 502.
  msw.use(
    http.post(`${apiOrigin}/collections/add-files`, async ({ request }) => {
      const body = (await request.json()) as { files: { encryptedKey: string; keyDecryptionNonce: string }[] };
      const source = fake.files.get(holidays.id)!.get(id)!;
      fake.putFile({ ...source, ...body.files[0]!, collectionID: trip.id });
      return HttpResponse.json({ code: 'BAD_GATEWAY' }, { status: 502 });
    }),
  );
  const channel = new BroadcastChannel('ente-photos-library');
  const told = new Promise((resolve) => (channel.onmessage = resolve));
  await expect(library.addToAlbum(trip.id, library.snapshot().files)).rejects.toThrow();
  expect(library.snapshot().files[0]?.collectionIDs).toEqual([holidays.id, trip.id]);
  await expect(told).resolves.toMatchObject({ data: 'changed' });
  channel.close();
});

test('deleting an album but keeping its files: taken out of it first (others’ removed, the user’s moved), then deleted', async () => {
  const holidays = await ownAlbum('Holidays');
  const travel = await ownAlbum('Travel');
  const only = await upload(holidays, 'only.jpg', 1_000);
  const both = await upload(holidays, 'both.jpg', 2_000);
  const [boxed] = await crypto.boxFileKeys([{ id: both, key: fileKeys.get(both) ?? '' }], travel.key);
  fake.putFile({ ...fake.files.get(holidays.id)!.get(both)!, ...boxed!, collectionID: travel.id });
  // A file a collaborator (user 8) added to the album.
  const theirs = await upload(holidays, 'theirs.jpg', 3_000);
  fake.putFile({ ...fake.files.get(holidays.id)!.get(theirs)!, ownerID: 8 });
  const library = await open();

  await library.deleteAlbum(holidays.id, { keepFiles: true });
  const snapshot = library.snapshot();
  expect(snapshot.albums.map((album) => album.name).sort()).toEqual(['Travel', 'Uncategorized']);
  const uncategorized = snapshot.albums.find((album) => album.type === 'uncategorized')!;
  const albumsOf = (id: number) => snapshot.files.find((file) => file.id === id)?.collectionIDs;
  expect(albumsOf(only)).toEqual([uncategorized.id]);
  expect(albumsOf(both)).toEqual([travel.id]);
  expect(albumsOf(theirs)).toBeUndefined();
  expect(fake.requests.find((r) => r.path === '/collections/v3/remove-files')?.body).toEqual({
    collectionID: holidays.id,
    fileIDs: [theirs],
  });
});

test('the uncategorized album: created once, then found', async () => {
  const library = await open();
  const created = await library.specialAlbum('uncategorized');
  expect(created).toMatchObject({ type: 'uncategorized', role: 'OWNER', name: 'Uncategorized' });
  expect(await library.specialAlbum('uncategorized')).toBe(created);
  expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/collections')).toHaveLength(1);
});

test('a collection naming the user as owner with a key sealed to them (as a server could) is not their album', async () => {
  const serverKey = await crypto.generateKey();
  const forged = fake.putCollection({
    ...collectionFields,
    ...(await crypto.encryptCollectionName('Uncategorized', serverKey)),
    type: 'uncategorized',
    id: fake.id(),
    owner,
    encryptedKey: await crypto.sealCollectionKey(serverKey, publicKey),
    keyDecryptionNonce: '',
    sharees: [],
  });
  const library = await open();
  expect(library.snapshot().albums).toEqual([]);
  // Uploads without an album go to one whose key is under the masterKey, not to the server's.
  const created = await library.specialAlbum('uncategorized');
  expect(created.id).not.toBe(forged.id);
  expect(created.key).not.toBe(serverKey);
  await expect(library.addToAlbum(forged.id, [])).rejects.toEqual(new LibraryError('albumNotFound'));
});

test('a file the server also lists in its own collection under another key: shown and written with the user’s key', async () => {
  // A collection of the server's (a lower id than the user's album), its key sealed to the user.
  const servers = await sharedAlbum('Server’s');
  const mine = await ownAlbum('Mine');
  const id = await upload(mine, 'real.jpg', 1_000);
  const realKey = fileKeys.get(id)!;
  // The same file id in the server's collection, under a key and metadata the server chose.
  await upload(servers, 'forged.jpg', 2_000, id);
  const forgedKey = fileKeys.get(id)!;
  // And in the trash, named with the server's collection.
  const forged = fake.files.get(servers.id)!.get(id)!;
  const time = fake.tick();
  fake.trash.set(id, {
    file: forged,
    isDeleted: false,
    isRestored: false,
    deleteBy: time,
    createdAt: time,
    updatedAt: time,
  });
  const library = await open();
  const [shown] = library.snapshot().files;
  expect(shown).toMatchObject({ id, key: realKey, collectionIDs: [mine.id] });
  expect(shown?.metadata.title).toBe('real.jpg');
  expect(filesOfAlbum(library.snapshot(), servers.id)).toEqual([]);
  expect(library.snapshot().trash).toEqual([]);

  // Add and move box the key of the user's own row, whatever the object handed in says.
  const other = await library.createAlbum('Other');
  await library.addToAlbum(other, [{ ...shown!, key: forgedKey }]);
  const added = fake.files.get(other)!.get(id)!;
  const otherKey = library.snapshot().albums.find((album) => album.id === other)!.key;
  expect(await crypto.decryptBox(added.encryptedKey, added.keyDecryptionNonce, otherKey)).toBe(realKey);
  const trip = await library.createAlbum('Trip');
  // Out of the server's collection nothing is moved while the user's own copy is under another key.
  fake.requests.length = 0;
  await library.moveToAlbum(servers.id, trip, [shown!]);
  expect(fake.requests.filter((r) => r.path === '/collections/move-files')).toEqual([]);
  await library.moveToAlbum(mine.id, trip, [{ ...shown!, key: forgedKey }]);
  const moved = fake.files.get(trip)!.get(id)!;
  const tripKey = library.snapshot().albums.find((album) => album.id === trip)!.key;
  expect(await crypto.decryptBox(moved.encryptedKey, moved.keyDecryptionNonce, tripKey)).toBe(realKey);
});

test('the trash: trash, restore into an album, delete for ever', async () => {
  const holidays = await ownAlbum('Holidays');
  const shared = await sharedAlbum('Shared');
  const id = await upload(holidays, 'a.jpg', 1_000);
  await upload(holidays, 'b.jpg', 2_000);
  await upload(shared, 'theirs.jpg', 3_000);
  const library = await open();

  const file = library.snapshot().files.find((f) => f.id === id)!;
  await library.trashFiles([file]);
  expect(fake.requests.find((r) => r.path === '/files/trash')?.body).toEqual({
    items: [{ fileID: id, collectionID: holidays.id }],
  });
  expect(titles(library)).toEqual(['theirs.jpg', 'b.jpg']);
  expect(library.snapshot().trash.map((t) => t.file.metadata.title)).toEqual(['a.jpg']);
  // A file only in an album shared with the user is not theirs to trash.
  const theirs = library.snapshot().files.find((f) => f.metadata.title === 'theirs.jpg')!;
  await expect(library.trashFiles([theirs])).rejects.toEqual(new LibraryError('notOwner'));

  await library.restoreFiles(holidays.id, [id]);
  expect(library.snapshot().trash).toEqual([]);
  expect(titles(library)).toEqual(['theirs.jpg', 'b.jpg', 'a.jpg']);

  await library.trashFiles([library.snapshot().files.find((f) => f.id === id)!]);
  await library.deleteForever([id]);
  expect(library.snapshot().trash).toEqual([]);
  expect(titles(library)).toEqual(['theirs.jpg', 'b.jpg']);
});

test('a selection to the trash: the user’s own files go, others’ (a collaborator’s, a shared album’s) stay and are counted', async () => {
  const holidays = await ownAlbum('Holidays');
  const shared = await sharedAlbum('Shared');
  const mine = await upload(holidays, 'mine.jpg', 1_000);
  const collaborators = await upload(holidays, 'collaborator.jpg', 2_000);
  fake.putFile({ ...fake.files.get(holidays.id)!.get(collaborators)!, ownerID: 8 });
  await upload(shared, 'theirs.jpg', 3_000);
  const library = await open();

  expect(await library.trashOwnFiles(library.snapshot().files)).toEqual({ leftOut: 2 });
  expect(fake.requests.filter((r) => r.path === '/files/trash').map((r) => r.body)).toEqual([
    { items: [{ fileID: mine, collectionID: holidays.id }] },
  ]);
  expect(library.snapshot().trash.map((t) => t.file.metadata.title)).toEqual(['mine.jpg']);
  // Nothing of the user's: no request at all.
  expect(await library.trashOwnFiles(library.snapshot().files)).toEqual({ leftOut: 2 });
  expect(fake.requests.filter((r) => r.path === '/files/trash')).toHaveLength(1);
});

test('a public link: created, a password set as its Argon2id hash, the key in the shared address', async () => {
  const holidays = await ownAlbum('Holidays');
  const library = await open();
  const link = await library.createLink(holidays.id, { password: 'open sesame' });
  expect(link.passwordEnabled).toBe(true);
  const put = fake.requests.find((r) => r.method === 'PUT' && r.path === '/collections/share-url');
  expect(put?.body).toMatchObject({ collectionID: holidays.id, opsLimit: 2, memLimit: 64 * 1024 * 1024 });
  expect(JSON.stringify(put?.body)).not.toContain('open sesame');
  expect(library.snapshot().albums[0]?.link).toMatchObject({ passwordEnabled: true, url: link.url });
  expect(shareableLink(link.url, holidays.key)).toMatch(
    /^https:\/\/photos\.example\/shared-albums\?t=ABCDEFGHJK#[1-9A-HJ-NP-Za-km-z]{43,44}$/,
  );

  await library.updateLink(holidays.id, { password: null });
  expect(library.snapshot().albums[0]?.link?.passwordEnabled).toBe(false);
});

test('logout clears the cache (a declared place); a closed library refuses writes', async () => {
  expect(storagePlaces()).toContainEqual(photosLibraryDB);
  await ownAlbum('Holidays');
  const library = await open();
  const listener = jest.fn();
  library.subscribe(listener);
  library.close();
  expect(listener).toHaveBeenCalledTimes(1);
  expect(library.snapshot().albums).toEqual([]);
  await expect(library.createAlbum('x')).rejects.toEqual(new LibraryError('closed'));
});

test('a photo in a hidden album (magic metadata visibility 2) is left out of albums and files, wherever else it is', async () => {
  const holidays = await ownAlbum('Holidays');
  const { key, ...fields } = await crypto.newCollectionKeys('.hidden', masterKey);
  const visibility = await crypto.encryptBlobText(JSON.stringify({ subType: 1, visibility: 2 }), key);
  const magicMetadata = { version: 1, count: 2, data: visibility.encryptedData, header: visibility.header };
  const hiddenRow = fake.putCollection({
    ...collectionFields,
    ...fields,
    id: fake.id(),
    owner,
    sharees: [],
    magicMetadata,
  });
  const hidden = { id: hiddenRow.id, key };
  const both = await upload(holidays, 'secret.jpg', 20);
  await upload(hidden, 'secret.jpg', 20, both);
  await upload(holidays, 'beach.jpg', 10);
  const library = await open();
  expect(library.snapshot().albums.map((album) => album.name)).toEqual(['Holidays']);
  expect(library.snapshot().hiddenAlbums.map((album) => [album.id, album.visibility])).toEqual([[hidden.id, 'hidden']]);
  expect(titles(library)).toEqual(['beach.jpg']);
  expect(filesOfAlbum(library.snapshot(), holidays.id).map((file) => file.metadata.title)).toEqual(['beach.jpg']);
});
