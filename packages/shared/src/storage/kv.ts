// The `kv` IndexedDB database (docs/protocol.md#indexeddb), through idb-keyval: version 1, one object
// store `kv`, string values under the kv keys of the registry. Reading a value that is not a string
// raises KVTypeError instead of handing a wrong type to the caller. See: [Note: kv connection]
//
// [Note: kv connection]
// idb-keyval opens one connection per store on first use and keeps it in a closure, with no way to
// close it and no `versionchange` handler. A connection that stays open blocks the deletion of the
// database, ours (logout) and another tab's alike. So each transaction's database gets a handler that
// closes it when someone deletes or upgrades the database, and deleting closes it first; either way
// the store is dropped, and the next use opens a fresh one (recreating the database if it is gone).
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

import { storageRegistry, type KVKey } from './registry.ts';

const { database: databaseName, objectStore: storeName } = storageRegistry.kv;

export class KVTypeError extends Error {
  constructor(key: KVKey, actualType: string) {
    super(`The kv value of ${key} is a ${actualType}, expected a string`);
    this.name = 'KVTypeError';
  }
}

export async function savedKV(key: KVKey): Promise<string | undefined> {
  const value: unknown = await get(key, kvStore());
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new KVTypeError(key, value === null ? 'null' : typeof value);
  return value;
}

/** Resolves once the write has committed. */
export async function saveKV(key: KVKey, value: string): Promise<void> {
  await set(key, value, kvStore());
}

export async function removeKV(key: KVKey): Promise<void> {
  await del(key, kvStore());
}

/**
 * Closes our connection and deletes the whole database. Connections of other tabs close themselves
 * when they see the deletion, so it is not blocked for long.
 */
export async function deleteKVDatabase(): Promise<void> {
  const open = store;
  store = undefined;
  if (open) {
    try {
      await open('readonly', (objectStore) => objectStore.transaction.db.close());
    } catch {
      // It never opened: nothing to close.
    }
  }
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(databaseName);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('Could not delete the kv database'));
  });
}

let store: UseStore | undefined;

/** The idb-keyval store of the kv database, opening it on first use. See: [Note: kv connection] */
function kvStore(): UseStore {
  if (store) return store;
  const opened = createStore(databaseName, storeName);
  const current: UseStore = (mode, callback) =>
    opened(mode, (objectStore) => {
      const database = objectStore.transaction.db;
      database.onversionchange = () => {
        database.close();
        if (store === current) store = undefined;
      };
      return callback(objectStore);
    });
  store = current;
  return current;
}
