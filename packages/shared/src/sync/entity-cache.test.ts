import 'fake-indexeddb/auto';

import { deleteIndexedDatabase } from '@ente/shared/storage/indexed-db.ts';

import { entityCache, type CachedEntity } from './entity-cache.ts';

const name = 'entity-cache-test';
const store = entityCache(name);
const key = { encryptedKey: 'a2V5', header: 'bm9uY2U=' };
const entity = (id: string, updatedAt: number, data = `data-${id}-${String(updatedAt)}`): CachedEntity => ({
  id,
  encryptedData: data,
  header: 'aGVhZGVy',
  updatedAt,
});
const sync = (sinceTime: number, timestamp = sinceTime + 5, timeOffsetMs = 0) => ({
  sinceTime,
  timestamp,
  timeOffsetMs,
});
const byId = (entities: CachedEntity[]) => [...entities].sort((a, b) => a.id.localeCompare(b.id));

afterEach(async () => {
  await store.close();
  await deleteIndexedDatabase(name);
});

test('an empty cache', async () => {
  expect(await store.read(1)).toEqual({ entities: [] });
});

test('keeps the key, the entities and the sync state of its user', async () => {
  await store.saveKey(7, key);
  await store.saveChange(7, { put: [entity('a', 10), entity('b', 11)], sync: sync(11, 20, -1500) });
  const cache = await store.read(7);
  expect(cache.key).toEqual(key);
  expect(byId(cache.entities)).toEqual([entity('a', 10), entity('b', 11)]);
  expect(cache.sync).toEqual({ sinceTime: 11, timestamp: 20, timeOffsetMs: -1500 });
});

test('is the database of the registry, with the stores key, entities and meta', async () => {
  await store.saveKey(7, key);
  await store.close();
  const raw = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });
  expect([...raw.objectStoreNames].sort()).toEqual(['entities', 'key', 'meta']);
  raw.close();
});

test('removes deleted entities and replaces an entity only with one at least as new', async () => {
  await store.saveChange(7, { put: [entity('a', 10), entity('b', 11), entity('c', 12)] });
  await store.saveChange(7, {
    put: [entity('a', 9, 'older'), entity('b', 13, 'newer'), entity('c', 12, 'same time')],
    remove: ['c', 'unknown'],
  });
  expect(byId((await store.read(7)).entities)).toEqual([entity('a', 10), entity('b', 13, 'newer')]);
});

test('the cursor never moves back; the timestamp and offset are the latest', async () => {
  await store.saveChange(7, { sync: sync(50, 60, 100) });
  await store.saveChange(7, { sync: sync(40, 70, -200) });
  expect((await store.read(7)).sync).toEqual({ sinceTime: 50, timestamp: 70, timeOffsetMs: -200 });
});

test("another user's cache is discarded when read", async () => {
  await store.saveKey(7, key);
  await store.saveChange(7, { put: [entity('a', 10)], sync: sync(10) });
  expect(await store.read(8)).toEqual({ entities: [] });
  expect(await store.read(7)).toEqual({ entities: [] });
});

test("another user's cache is discarded when written", async () => {
  await store.saveKey(7, key);
  await store.saveChange(7, { put: [entity('a', 10)], sync: sync(10) });
  await store.saveChange(8, { put: [entity('b', 3)] });
  expect(await store.read(8)).toEqual({ entities: [entity('b', 3)] });
  expect(await store.read(7)).toEqual({ entities: [] });
});

test('clear empties every store', async () => {
  await store.saveKey(7, key);
  await store.saveChange(7, { put: [entity('a', 10)], sync: sync(10) });
  await store.clear();
  expect(await store.read(7)).toEqual({ entities: [] });
});

test('an open connection does not block the deletion (logout); the next use starts afresh', async () => {
  await store.saveChange(7, { put: [entity('a', 10)] });
  const blocked = jest.fn();
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onblocked = blocked;
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('delete failed'));
  });
  expect(blocked).not.toHaveBeenCalled();
  expect(await store.read(7)).toEqual({ entities: [] });
  await store.saveChange(7, { put: [entity('b', 11)] });
  expect((await store.read(7)).entities).toEqual([entity('b', 11)]);
});

test('10,000 entities in one change, read back in one call', async () => {
  const many = Array.from({ length: 10_000 }, (_, i) => entity(`id-${String(i).padStart(5, '0')}`, i + 1));
  await store.saveChange(7, { put: many, sync: sync(10_000) });
  const cache = await store.read(7);
  expect(cache.entities).toHaveLength(10_000);
  expect(byId(cache.entities)).toEqual(many);
});

test('the cursor moves only over what the cache holds: a change pulled from beyond it keeps its entities, not its cursor', async () => {
  await store.saveChange(7, { put: [entity('a', 10)], sync: sync(10), syncFrom: 0 });
  await store.saveChange(7, { put: [entity('c', 30)], sync: sync(30), syncFrom: 20 });
  let cache = await store.read(7);
  expect(cache.sync?.sinceTime).toBe(10);
  expect(byId(cache.entities)).toEqual([entity('a', 10), entity('c', 30)]);
  await store.saveChange(7, { put: [entity('b', 20)], sync: sync(20), syncFrom: 10 });
  cache = await store.read(7);
  expect(cache.sync?.sinceTime).toBe(20);
  // An emptied cache (another user's discarded, logout) holds nothing: a change from beyond 0 moves nothing.
  await store.clear();
  await store.saveChange(7, { put: [entity('d', 40)], sync: sync(40), syncFrom: 30 });
  expect((await store.read(7)).sync).toBeUndefined();
});

test('a change that requires a record within bounds is applied only then (absent: 0), whole or not at all', async () => {
  const requires = (atLeast: number, atMost?: number) => ({ id: 'cursor/x', atLeast, ...(atMost ? { atMost } : {}) });
  await store.saveChange(7, { put: [entity('a', 10), entity('cursor/x', 10)], requires: requires(0) });
  await store.saveChange(7, { put: [entity('b', 20), entity('cursor/x', 20)], remove: ['a'], requires: requires(10) });
  expect(byId((await store.read(7)).entities)).toEqual([entity('b', 20), entity('cursor/x', 20)]);
  // Emptied meanwhile (another tab), or behind: nothing of the change is kept, its removals included.
  await store.saveChange(7, { put: [entity('c', 40), entity('cursor/x', 40)], remove: ['b'], requires: requires(30) });
  expect(byId((await store.read(7)).entities)).toEqual([entity('b', 20), entity('cursor/x', 20)]);
  // Already past the change's own cursor (another tab pulled later and saved first): its older rows stay out.
  await store.saveChange(7, { put: [entity('a', 15), entity('cursor/x', 15)], requires: requires(10, 15) });
  expect(byId((await store.read(7)).entities)).toEqual([entity('b', 20), entity('cursor/x', 20)]);
  await store.saveChange(7, { put: [entity('d', 20)], requires: requires(10, 20) });
  expect(byId((await store.read(7)).entities)).toEqual([entity('b', 20), entity('cursor/x', 20), entity('d', 20)]);
  await store.clear();
  await store.saveChange(7, { put: [entity('c', 30), entity('cursor/x', 30)], requires: requires(20) });
  expect((await store.read(7)).entities).toEqual([]);
});

test('the quick start read: the key and the newest snapshot of its user, no entity records', async () => {
  const snapshot = (sinceTime: number) => ({
    encryptedData: `snap-${String(sinceTime)}`,
    header: 'aA==',
    format: 'f',
    sinceTime,
  });
  expect(await store.readStart(7)).toEqual({});
  await store.saveKey(7, key);
  await store.saveChange(7, { put: [entity('a', 10)], sync: sync(10) });
  expect(await store.readStart(7)).toEqual({ key });
  await store.saveSnapshot(7, snapshot(10));
  await store.saveSnapshot(7, snapshot(30));
  // Another tab's older snapshot, written later, does not replace a newer one.
  await store.saveSnapshot(7, snapshot(20));
  expect(await store.readStart(7)).toEqual({ key, snapshot: snapshot(30) });
  // The full read is unchanged by the snapshot.
  expect((await store.read(7)).sync).toEqual(sync(10));
  // Another user's start discards it all.
  expect(await store.readStart(8)).toEqual({});
  expect(await store.read(7)).toEqual({ entities: [] });
});
