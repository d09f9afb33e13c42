import 'fake-indexeddb/auto';

import { deleteKVDatabase, KVTypeError, removeKV, savedKV, saveKV } from './kv.ts';
import { storageRegistry } from './registry.ts';

afterEach(() => deleteKVDatabase());

test('stores, reads and removes strings', async () => {
  expect(await savedKV('token')).toBeUndefined();
  await saveKV('token', 'abc');
  await saveKV('apiOrigin', 'http://localhost:8080');
  expect(await savedKV('token')).toBe('abc');
  expect(await savedKV('apiOrigin')).toBe('http://localhost:8080');
  await removeKV('token');
  expect(await savedKV('token')).toBeUndefined();
  expect(await savedKV('apiOrigin')).toBe('http://localhost:8080');
});

test('is the IndexedDB database of the registry: kv, version 1, with the one object store kv', async () => {
  await saveKV('userID', '42');
  const database = await openRaw();
  expect([database.name, database.version]).toEqual([storageRegistry.kv.database, storageRegistry.kv.version]);
  expect([...database.objectStoreNames]).toEqual([storageRegistry.kv.objectStore]);
  expect(await rawGet(database, 'userID')).toBe('42');
  database.close();
});

test.each([
  ['a number', 42, 'number'],
  ['an object', { token: 'abc' }, 'object'],
  ['null', null, 'null'],
  ['a boolean', true, 'boolean'],
])('reading %s raises a KVTypeError', async (_, value, typeName) => {
  await saveKV('token', 'placeholder'); // creates the database
  const database = await openRaw();
  await rawPut(database, 'token', value);
  database.close();
  await expect(savedKV('token')).rejects.toBeInstanceOf(KVTypeError);
  await expect(savedKV('token')).rejects.toThrow(`The kv value of token is a ${typeName}, expected a string`);
});

test('deleting the database, while we hold a connection, removes it with every value', async () => {
  await saveKV('token', 'abc');
  await deleteKVDatabase();
  const names = (await indexedDB.databases()).map((info) => info.name);
  expect(names).not.toContain('kv');
});

test('after its deletion the database is created afresh on the next use', async () => {
  await saveKV('token', 'abc');
  await deleteKVDatabase();
  expect(await savedKV('token')).toBeUndefined();
  await saveKV('token', 'def');
  expect(await savedKV('token')).toBe('def');
});

test('another tab deleting the database is not blocked by our open connection', async () => {
  await saveKV('token', 'abc');
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase('kv');
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
    request.onblocked = () => reject(new Error('blocked'));
  });
  expect(await savedKV('token')).toBeUndefined();
  await saveKV('token', 'def');
  expect(await savedKV('token')).toBe('def');
});

function openRaw(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open('kv');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function rawGet(database: IDBDatabase, key: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = database.transaction('kv').objectStore('kv').get(key);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function rawPut(database: IDBDatabase, key: string, value: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const transaction = database.transaction('kv', 'readwrite');
    transaction.objectStore('kv').put(value, key);
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
  });
}
