// The auth app's cache of the encrypted vault: the IndexedDB database `ente-auth` of the auth app's
// storage (`authenticatorDB`), through idb. A reload shows the codes from here at once and pulls only the diff
// since the cursor kept here. Everything is kept as the server sent it: the authenticator key wrapped
// under the masterKey, the entities as Blobs; nothing in it is readable without the masterKey.
// See: [Note: Authenticator cache]
//
// [Note: Authenticator cache]
// Three object stores, all written in one transaction per change so that the cursor never gets ahead of
// the entities it covers:
// - `key`: one record (`current`), the authenticator key as `GET /authenticator/key` gave it.
// - `entities`: one record per live entity, by id: `{id, encryptedData, header, updatedAt}`. Deleted
//   entities are removed, not kept as tombstones. A record is only replaced by one at least as new, so
//   two tabs saving what they pulled in a different order keep the newest.
// - `meta`: `owner` (the user id the cache belongs to) and `sync` (`sinceTime`, the cursor of the next
//   diff: the largest `updatedAt` applied, which only grows; `timestamp`, the server time of the last
//   diff; `timeOffsetMs`). A cache of another user is discarded when read or written.
// The connection closes itself when another connection deletes or upgrades the database (idb's
// `blocking`), so that logout's deletion (storage/indexed-db.ts) is never blocked by an open vault; the
// next use opens it again.
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';

// Declared by the auth app (apps/auth/src/storage.ts, `authenticatorDB`), which logout reads; this module
// moves next to it with the vault, and then imports the name from there.
const databaseName = 'ente-auth';
const databaseVersion = 1;

/** The authenticator key as the server keeps it: Box(authKey) under the masterKey, `header` its nonce. */
export type CachedAuthenticatorKey = {
  encryptedKey: string;
  header: string;
};

/** A live entity as the server sent it (a Blob under the authenticator key). */
export type CachedEntity = {
  id: string;
  encryptedData: string;
  header: string;
  /** µs, the server's. */
  updatedAt: number;
};

/** Where the last pull ended. */
export type CachedSyncState = {
  /** The `sinceTime` of the next diff: the largest `updatedAt` applied (µs). */
  sinceTime: number;
  /** The server's `timestamp` of the last diff (µs). */
  timestamp: number;
  /** server − local (ms) measured at the last diff. */
  timeOffsetMs: number;
};

/** Everything cached for one user. */
export type AuthenticatorCache = {
  key?: CachedAuthenticatorKey;
  entities: CachedEntity[];
  sync?: CachedSyncState;
};

/** One change, applied in one transaction. */
export type AuthenticatorCacheChange = {
  /** Entities to store (each only over an older or equal version). */
  put?: readonly CachedEntity[];
  /** Ids of entities that no longer exist (an id both here and in `put` is removed). */
  remove?: readonly string[];
  /** The new cursor and offset (the cursor never moves back). */
  sync?: CachedSyncState;
};

interface AuthenticatorSchema extends DBSchema {
  key: { key: 'current'; value: CachedAuthenticatorKey };
  entities: { key: string; value: CachedEntity };
  /** `owner`: a user id; `sync`: a CachedSyncState. */
  meta: { key: 'owner' | 'sync'; value: number | CachedSyncState };
}

type Database = IDBPDatabase<AuthenticatorSchema>;
type StoreName = 'key' | 'entities' | 'meta';
type WriteTransaction = IDBPTransaction<AuthenticatorSchema, StoreName[], 'readwrite'>;
const allStores: StoreName[] = ['key', 'entities', 'meta'];

let connection: Promise<Database> | undefined;

function database(): Promise<Database> {
  if (connection) return connection;
  const opening = openDB<AuthenticatorSchema>(databaseName, databaseVersion, {
    upgrade(db) {
      db.createObjectStore('key');
      db.createObjectStore('entities', { keyPath: 'id' });
      db.createObjectStore('meta');
    },
    blocking() {
      // Another connection wants to delete or upgrade the database: let it.
      void closeAuthenticatorDB();
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

/** Closes this tab's connection (the next use opens it again). */
export async function closeAuthenticatorDB(): Promise<void> {
  const open = connection;
  connection = undefined;
  if (!open) return;
  try {
    (await open).close();
  } catch {
    // It never opened: nothing to close.
  }
}

/** What is cached for `userID`; a cache of another user is discarded. */
export async function savedAuthenticatorCache(userID: number): Promise<AuthenticatorCache> {
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
    if (owner !== undefined || key !== undefined || entities.length > 0) await clearAuthenticatorCache();
    return { entities: [] };
  }
  const cache: AuthenticatorCache = { entities };
  if (key) cache.key = key;
  if (typeof sync === 'object') cache.sync = sync;
  return cache;
}

/** Keeps the authenticator key of `userID` (discarding another user's cache first). */
export async function saveAuthenticatorKey(userID: number, key: CachedAuthenticatorKey): Promise<void> {
  await write(userID, async (tx) => {
    await tx.objectStore('key').put({ encryptedKey: key.encryptedKey, header: key.header }, 'current');
  });
}

/** Applies one change to the cache of `userID` in one transaction (discarding another user's cache first). */
export async function saveAuthenticatorChange(userID: number, change: AuthenticatorCacheChange): Promise<void> {
  await write(userID, async (tx) => {
    const entities = tx.objectStore('entities');
    const meta = tx.objectStore('meta');
    const steps: Promise<unknown>[] = [];
    const removed = new Set(change.remove);
    for (const id of removed) steps.push(entities.delete(id));
    for (const entity of change.put ?? []) {
      if (removed.has(entity.id)) continue;
      const record: CachedEntity = {
        id: entity.id,
        encryptedData: entity.encryptedData,
        header: entity.header,
        updatedAt: entity.updatedAt,
      };
      steps.push(
        entities.get(entity.id).then((stored) => {
          if (!stored || stored.updatedAt <= record.updatedAt) return entities.put(record);
          return undefined;
        }),
      );
    }
    if (change.sync) {
      const next = change.sync;
      steps.push(
        meta.get('sync').then((stored) => {
          const previous = typeof stored === 'object' ? stored.sinceTime : 0;
          return meta.put({ ...next, sinceTime: Math.max(previous, next.sinceTime) }, 'sync');
        }),
      );
    }
    await Promise.all(steps);
  });
}

/** Empties the cache (the database itself stays; logout deletes it). */
export async function clearAuthenticatorCache(): Promise<void> {
  const db = await database();
  const tx = db.transaction(allStores, 'readwrite');
  await Promise.all([...allStores.map((name) => tx.objectStore(name).clear()), tx.done]);
}

/** Runs `step` in one read-write transaction over every store, after making `userID` the owner. */
async function write(userID: number, step: (tx: WriteTransaction) => Promise<void>): Promise<void> {
  const db = await database();
  const tx = db.transaction(allStores, 'readwrite');
  const work = (async () => {
    const meta = tx.objectStore('meta');
    const owner = await meta.get('owner');
    if (owner !== userID) {
      await Promise.all(allStores.map((name) => tx.objectStore(name).clear()));
      await meta.put(userID, 'owner');
    }
    await step(tx);
  })();
  // If a step fails, the transaction aborts and nothing of it is kept.
  work.catch(() => {
    try {
      tx.abort();
    } catch {
      // Already finished.
    }
  });
  await Promise.all([work, tx.done]);
}
