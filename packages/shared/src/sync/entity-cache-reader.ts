// The reading half of an entity cache (entity-cache.ts): the IndexedDB connection, the reads and the
// clearing, without the writes. A module of its own so that a page can read the cache before the code that
// writes it has arrived (the auth app's vault-start reads it in its own small chunk; the writes come with the
// vault's). One reader per database and tab, shared with the entity cache of the same database, so that both
// use one connection. See: [Note: Entity cache]
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

import type {
  CachedEntity,
  CachedKey,
  CachedSnapshot,
  CachedStart,
  CachedStore,
  CachedSyncState,
} from './entity-cache.ts';

export interface EntityCacheSchema extends DBSchema {
  key: { key: 'current'; value: CachedKey };
  entities: { key: string; value: CachedEntity };
  /** `owner`: a user id; `sync`: a CachedSyncState; `snapshot`: a CachedSnapshot. */
  meta: { key: 'owner' | 'sync' | 'snapshot'; value: number | CachedSyncState | CachedSnapshot };
}

type Database = IDBPDatabase<EntityCacheSchema>;
export type EntityCacheStoreName = 'key' | 'entities' | 'meta';
export const allStores: EntityCacheStoreName[] = ['key', 'entities', 'meta'];
const databaseVersion = 1;

export interface EntityCacheReader {
  /** This tab's connection to the database, opened on first use. */
  database(): Promise<Database>;
  /** What is cached for `userID`; a cache of another user is discarded. */
  read(userID: number): Promise<CachedStore>;
  /** The key and snapshot cached for `userID` (one small transaction); a cache of another user is discarded. */
  readStart(userID: number): Promise<CachedStart>;
  /** Empties the cache (the database itself stays; logout deletes it). */
  clear(): Promise<void>;
  /** Closes this tab's connection (the next use opens it again). */
  close(): Promise<void>;
}

const readers = new Map<string, EntityCacheReader>();

/** The reader of the IndexedDB database `databaseName` (one per database). */
export function entityCacheReader(databaseName: string): EntityCacheReader {
  let reader = readers.get(databaseName);
  if (!reader) {
    reader = newReader(databaseName);
    readers.set(databaseName, reader);
  }
  return reader;
}

function newReader(databaseName: string): EntityCacheReader {
  let connection: Promise<Database> | undefined;

  function database(): Promise<Database> {
    if (connection) return connection;
    const opening = openDB<EntityCacheSchema>(databaseName, databaseVersion, {
      upgrade(db) {
        db.createObjectStore('key');
        db.createObjectStore('entities', { keyPath: 'id' });
        db.createObjectStore('meta');
      },
      blocking() {
        // Another connection wants to delete or upgrade the database: let it.
        void close();
      },
      terminated() {
        if (connection === opening) connection = undefined;
      },
    });
    connection = opening;
    opening.catch(() => {
      if (connection === opening) connection = undefined;
    });
    return opening;
  }

  async function close(): Promise<void> {
    const open = connection;
    connection = undefined;
    if (!open) return;
    try {
      (await open).close();
    } catch {
      // It never opened: nothing to close.
    }
  }

  async function clear(): Promise<void> {
    const db = await database();
    const tx = db.transaction(allStores, 'readwrite');
    await Promise.all([...allStores.map((name) => tx.objectStore(name).clear()), tx.done]);
  }

  return {
    database,

    async read(userID) {
      const db = await database();
      const tx = db.transaction(allStores, 'readonly');
      const [owner, key, entities, sync] = await Promise.all([
        tx.objectStore('meta').get('owner'),
        tx.objectStore('key').get('current'),
        tx.objectStore('entities').getAll(),
        tx.objectStore('meta').get('sync'),
        tx.done,
      ]);
      if (owner !== userID) {
        if (owner !== undefined || key !== undefined || entities.length > 0) await clear();
        return { entities: [] };
      }
      const cache: CachedStore = { entities };
      if (key) cache.key = key;
      if (isSyncState(sync)) cache.sync = sync;
      return cache;
    },

    async readStart(userID) {
      const db = await database();
      const tx = db.transaction(['key', 'meta'], 'readonly');
      const [owner, key, snapshot] = await Promise.all([
        tx.objectStore('meta').get('owner'),
        tx.objectStore('key').get('current'),
        tx.objectStore('meta').get('snapshot'),
        tx.done,
      ]);
      if (owner !== userID) {
        if (owner !== undefined || key !== undefined) await clear();
        return {};
      }
      const start: CachedStart = {};
      if (key) start.key = key;
      if (isSnapshot(snapshot)) start.snapshot = snapshot;
      return start;
    },

    clear,
    close,
  };
}

export function isSyncState(value: unknown): value is CachedSyncState {
  return typeof value === 'object' && value !== null && !('format' in value);
}

export function isSnapshot(value: unknown): value is CachedSnapshot {
  return typeof value === 'object' && value !== null && 'format' in value;
}
