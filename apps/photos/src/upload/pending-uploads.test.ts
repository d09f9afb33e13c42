/** @jest-environment node */
// The records that let an upload survive a reload (pending-uploads.ts): kept in IndexedDB (fake-indexeddb here)
// without names, keys or content; told apart by the tab that wrote them; matched again by size and time.
import 'fake-indexeddb/auto';

import { expect, test } from '@jest/globals';

import {
  addPendingUploads,
  continueRecords,
  deletePendingUploads,
  fileFromHandle,
  leftBehind,
  listPendingUploads,
  markPendingUploadsDone,
  matchPendingUpload,
  movePendingUploads,
  resumableByHandle,
  type NewPendingUpload,
  type PendingUpload,
} from './pending-uploads.ts';

const part = (size: number, lastModified = 1000) => ({ size, lastModified });
const record = (over: Partial<NewPendingUpload> = {}): NewPendingUpload => ({
  tabID: 'gone',
  userID: 7,
  collectionID: 5,
  file: part(10),
  done: false,
  ...over,
});

test('records are added, listed, marked done, moved to another tab and deleted; nothing but what was given', async () => {
  const keys = await addPendingUploads([record(), record({ file: part(20), video: part(30) })]);
  expect(keys).toHaveLength(2);
  await markPendingUploadsDone([keys[0]!]);
  await movePendingUploads([keys[1]!], 'mine');
  const listed = await listPendingUploads();
  expect(listed).toEqual([
    { key: keys[0], ...record(), done: true },
    { key: keys[1], ...record({ file: part(20), video: part(30) }), tabID: 'mine' },
  ]);
  await deletePendingUploads(keys);
  expect(await listPendingUploads()).toEqual([]);
});

const stored = (key: number, over: Partial<PendingUpload> = {}): PendingUpload => ({ key, ...record(), ...over });

test('what a gone tab left: this user’s records of tabs whose lock is not held, the unfinished apart', () => {
  const records = [stored(1), stored(2, { done: true }), stored(3, { tabID: 'alive' }), stored(4, { userID: 8 })];
  const left = leftBehind(records, new Set(['alive']), 7);
  expect(left.all.map((r) => r.key)).toEqual([1, 2]);
  expect(left.unfinished.map((r) => r.key)).toEqual([1]);
});

test('an item picked again matches a record by each part’s size and time, a live photo only a live photo', () => {
  const file = (size: number, lastModified = 1000) => new File([new Uint8Array(size)], 'x.jpg', { lastModified });
  const records = [stored(1, { file: part(10) }), stored(2, { file: part(10), video: part(30) }), stored(3)];
  expect(matchPendingUpload(records, file(10), new Set())?.key).toBe(1);
  expect(matchPendingUpload(records, file(10), new Set([1]))?.key).toBe(3);
  expect(matchPendingUpload(records, file(10, 999), new Set())).toBeUndefined();
  expect(matchPendingUpload(records, { image: file(10), video: file(30) }, new Set())?.key).toBe(2);
  expect(matchPendingUpload(records, { image: file(10), video: file(31) }, new Set())).toBeUndefined();
});

test('a record resumes by itself only when each of its parts has a handle; a handle is read after permission', async () => {
  const handle = (permission: PermissionState) => {
    const asked: string[] = [];
    const value = {
      kind: 'file',
      name: 'x',
      queryPermission: () => Promise.resolve(permission),
      requestPermission: () => {
        asked.push('request');
        return Promise.resolve(permission === 'prompt' ? 'granted' : permission);
      },
      getFile: () => Promise.resolve(new File(['data'], 'x.jpg')),
    } as unknown as FileSystemFileHandle;
    return { value, asked };
  };
  const granted = handle('granted');
  expect(resumableByHandle(stored(1, { file: { ...part(1), handle: granted.value } }))).toBe(true);
  expect(resumableByHandle(stored(1, { file: { ...part(1), handle: granted.value }, video: part(2) }))).toBe(false);
  expect(resumableByHandle(stored(1))).toBe(false);

  expect(await (await fileFromHandle(granted.value)).text()).toBe('data');
  expect(granted.asked).toEqual([]);
  const prompt = handle('prompt');
  await fileFromHandle(prompt.value);
  expect(prompt.asked).toEqual(['request']);
  await expect(fileFromHandle(handle('denied').value)).rejects.toThrow('no permission');
});

test('items picked again continue their records per album, each record once; others and lost albums are fresh', () => {
  const file = (size: number) => new File([new Uint8Array(size)], 'x.jpg', { lastModified: 1000 });
  const records = [
    stored(1, { file: part(10), collectionID: 5 }),
    stored(2, { file: part(10), collectionID: 6, done: true }),
    stored(3, { file: part(20), collectionID: 9 }),
  ];
  const items = [file(10), file(10), file(10), file(20), file(30)].map((input, index) => ({ input, index }));
  const { continued, fresh, taken } = continueRecords(items, records, (id) => id !== 9);
  expect([...continued].map(([id, group]) => [id, group.keys, group.inputs])).toEqual([
    [5, [1], [items[0]!.input]],
    [6, [2], [items[1]!.input]],
  ]);
  expect(fresh.map((item) => item.index)).toEqual([2, 3, 4]);
  expect([...taken]).toEqual([1, 2]);
});

test('after logout (no user saved) an operation does not create the database again', async () => {
  await new Promise((resolve, reject) => {
    const deletion = indexedDB.deleteDatabase('ente-photos-uploads');
    deletion.onsuccess = resolve;
    deletion.onerror = reject;
  });
  const storage = new Map<string, string>();
  Object.assign(globalThis, {
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    },
  });
  try {
    await expect(addPendingUploads([record()])).rejects.toBeDefined();
    await expect(markPendingUploadsDone([1])).rejects.toBeDefined();
    const names = (await indexedDB.databases()).map((database) => database.name);
    expect(names).not.toContain('ente-photos-uploads');
  } finally {
    Reflect.deleteProperty(globalThis, 'localStorage');
  }
});
