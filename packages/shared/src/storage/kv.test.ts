import 'fake-indexeddb/auto';
import { deleteKVDatabase, getKV, KVTypeError, removeKV, setKV } from './kv.ts';

afterEach(() => deleteKVDatabase());

test('stores, reads and removes strings', async () => {
  expect(await getKV('token')).toBeUndefined();
  await setKV('token', 'abc');
  await setKV('apiOrigin', 'http://localhost:8080');
  expect(await getKV('token')).toBe('abc');
  expect(await getKV('apiOrigin')).toBe('http://localhost:8080');
  await removeKV('token');
  expect(await getKV('token')).toBeUndefined();
  expect(await getKV('apiOrigin')).toBe('http://localhost:8080');
});

test('is the IndexedDB database kv, version 1, with the one object store kv', async () => {
  await setKV('userID', '42');
  const database = await openRaw();
  expect(database.version).toBe(1);
  expect([...database.objectStoreNames]).toEqual(['kv']);
  expect(await rawGet(database, 'userID')).toBe('42');
  database.close();
});

test.each([
  ['a number', 42, 'number'],
  ['an object', { token: 'abc' }, 'object'],
  ['null', null, 'null'],
  ['a boolean', true, 'boolean'],
])('reading %s raises a KVTypeError', async (_, value, typeName) => {
  await setKV('token', 'placeholder'); // creates the database
  const database = await openRaw();
  await rawPut(database, 'token', value);
  database.close();
  const read = getKV('token');
  await expect(read).rejects.toBeInstanceOf(KVTypeError);
  await expect(getKV('token')).rejects.toThrow(`The kv value of token is a ${typeName}, expected a string`);
});

test('deleting the database removes every value, and it can be used again afterwards', async () => {
  await setKV('token', 'abc');
  await deleteKVDatabase();
  const names = (await indexedDB.databases()).map((info) => info.name);
  expect(names).not.toContain('kv');
  expect(await getKV('token')).toBeUndefined();
});

test('another tab deleting the database is not blocked by our open connection', async () => {
  await setKV('token', 'abc');
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase('kv');
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('blocked'));
  });
  expect(await getKV('token')).toBeUndefined();
});

function openRaw(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open('kv');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function rawGet(database: IDBDatabase, key: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = database.transaction('kv').objectStore('kv').get(key);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function rawPut(database: IDBDatabase, key: string, value: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const transaction = database.transaction('kv', 'readwrite');
    transaction.objectStore('kv').put(value, key);
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
  });
}
