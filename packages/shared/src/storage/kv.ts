// The `kv` IndexedDB database (protocol §10.2): version 1, one object store `kv`, string values under
// the kv keys of the registry. Reading a value that is not a string raises KVTypeError instead of
// handing a wrong type to the caller. Raw IndexedDB rather than a wrapper, because logout must close
// our connection before it can delete the database.
import type { KVKey } from './registry.ts';

const databaseName = 'kv';
const storeName = 'kv';
const databaseVersion = 1;

export class KVTypeError extends Error {
  constructor(key: KVKey, actualType: string) {
    super(`The kv value of ${key} is a ${actualType}, expected a string`);
    this.name = 'KVTypeError';
  }
}

export async function getKV(key: KVKey): Promise<string | undefined> {
  const value = await inStore('readonly', (store) => store.get(key));
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new KVTypeError(key, value === null ? 'null' : typeof value);
  return value;
}

export async function setKV(key: KVKey, value: string): Promise<void> {
  await inStore('readwrite', (store) => store.put(value, key));
}

export async function removeKV(key: KVKey): Promise<void> {
  await inStore('readwrite', (store) => store.delete(key));
}

/**
 * Closes our connection and deletes the whole database. Connections of other tabs close themselves
 * when they see the deletion (onversionchange), so the deletion is not blocked for long.
 */
export async function deleteKVDatabase(): Promise<void> {
  const open = connection;
  connection = undefined;
  if (open) {
    try {
      (await open).close();
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

let connection: Promise<IDBDatabase> | undefined;

function openDatabase(): Promise<IDBDatabase> {
  connection ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(databaseName, databaseVersion);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(storeName);
    };
    request.onsuccess = () => {
      const database = request.result;
      database.onversionchange = () => {
        database.close();
        connection = undefined;
      };
      resolve(database);
    };
    request.onerror = () => reject(request.error ?? new Error('Could not open the kv database'));
  }).catch((error: unknown) => {
    connection = undefined;
    throw error;
  });
  return connection;
}

async function inStore<T>(mode: IDBTransactionMode, operation: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const database = await openDatabase();
  return new Promise<T>((resolve, reject) => {
    const transaction = database.transaction(storeName, mode);
    const request = operation(transaction.objectStore(storeName));
    // Resolve once the transaction commits, so a write is durable when the promise settles.
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error ?? request.error);
    transaction.onabort = () => reject(transaction.error ?? new Error('kv transaction aborted'));
  });
}
