// A browser cache of an encrypted store kept in step with a server's paged diff: one IndexedDB
// database (through idb) holding the store's key as the server gave it (wrapped), the live entities as
// the server sent them (encrypted), and the cursor of the next diff, for one user. Nothing in it is
// readable without the user's masterKey. Generic: the auth app keeps its codes in one (apps/auth/src/vault/
// cache.ts, `ente-auth`); the photos app keeps its collections and files in its own (apps/photos/src/library/).
// See: [Note: Entity cache]
//
// [Note: Entity cache]
// Three object stores, all written in one transaction per change so that the cursor never gets ahead of
// the entities it covers:
// - `key`: one record (`current`), the store's key as the server gave it.
// - `entities`: one record per live entity, by id: `{id, encryptedData, header, updatedAt}`. Deleted
//   entities are removed, not kept as tombstones. A record is only replaced by one at least as new, so
//   two tabs saving what they pulled in a different order keep the newest.
// - `meta`: `owner` (the user id the cache belongs to), `sync` (`sinceTime`, the cursor of the next
//   diff, which only grows, and only over what the cache holds; `timestamp`, the server time of the last
//   diff; `timeOffsetMs`), and `snapshot`: the whole store at its own cursor in one encrypted Blob,
//   written after changes settle, which a reload reads instead of every entity record. A cache of
//   another user is discarded when read or written.
// The connection closes itself when another connection deletes or upgrades the database (idb's
// `blocking`), so that logout's deletion (storage/indexed-db.ts) is never blocked by an open store; the
// next use opens it again.
import type { IDBPTransaction } from 'idb';

import {
  allStores,
  entityCacheReader,
  isSnapshot,
  isSyncState,
  type EntityCacheSchema,
  type EntityCacheStoreName,
} from './entity-cache-reader.ts';

/** A Blob as the server keeps it (base64): the ciphertext and its secretstream header (@ente/crypto's BlobB64). */
export type BlobB64 = {
  encryptedData: string;
  header: string;
};

/** A key as the server keeps it: a Box under the masterKey, `header` its nonce. */
export type CachedKey = {
  encryptedKey: string;
  header: string;
};

/** A live entity as the server sent it (a Blob under the store's key). */
export type CachedEntity = BlobB64 & {
  id: string;
  /** µs, the server's. */
  updatedAt: number;
};

/** Where the last pull ended. */
export type CachedSyncState = {
  /** The `sinceTime` of the next diff (µs). */
  sinceTime: number;
  /** The server's `timestamp` of the last diff (µs). */
  timestamp: number;
  /** server − local (ms) measured at the last diff. */
  timeOffsetMs: number;
};

/**
 * The whole store at one cursor as one Blob under the store's key (what it holds is the store's
 * business; `format` says which shape), so that a reload reads one record and decrypts it in one call.
 */
export type CachedSnapshot = BlobB64 &
  /** `sinceTime`: the cursor the snapshot is at; a pull from there brings every later change. */
  Pick<CachedSyncState, 'sinceTime'> & { format: string };

/** Everything cached for one user. */
export type CachedStore = {
  key?: CachedKey;
  entities: CachedEntity[];
  sync?: CachedSyncState;
};

/** The quick read of a reload: the key and the snapshot, no entity records. */
export type CachedStart = {
  key?: CachedKey;
  snapshot?: CachedSnapshot;
};

/** One change, applied in one transaction. */
export type EntityCacheChange = {
  /** Entities to store (each only over an older or equal version). */
  put?: readonly CachedEntity[];
  /** Ids of entities that no longer exist (an id both here and in `put` is removed). */
  remove?: readonly string[];
  /** The new cursor and offset (the cursor never moves back). */
  sync?: CachedSyncState;
  /**
   * The cursor the change was pulled from: the cursor moves only when the cache holds everything up to
   * that point, so that a gap (a failed write, a cache emptied meanwhile) is pulled again rather than skipped.
   */
  syncFrom?: number;
  /**
   * The change is applied, whole, only when the entity `id` (a store's own cursor record, absent counting as 0) is
   * at least `atLeast` and at most `atMost`: a page pulled from a cursor is saved only over a cache that holds
   * everything up to it, never over one emptied meanwhile (another tab's failed write clears it), whose cursor it
   * would then carry past rows the cache no longer has; and never over a cache already past the page's own cursor
   * (another tab pulled later and saved first), which holds each row of the page as new or newer, or deleted since.
   */
  requires?: { id: string; atLeast: number; atMost?: number };
};

export interface EntityCache {
  /** What is cached for `userID`; a cache of another user is discarded. */
  read(userID: number): Promise<CachedStore>;
  /** The key and snapshot cached for `userID` (one small transaction); a cache of another user is discarded. */
  readStart(userID: number): Promise<CachedStart>;
  /** Keeps the snapshot of `userID`, unless the cache holds a newer one (discarding another user's cache first). */
  saveSnapshot(userID: number, snapshot: CachedSnapshot): Promise<void>;
  /** Keeps the key of `userID` (discarding another user's cache first). */
  saveKey(userID: number, key: CachedKey): Promise<void>;
  /** Applies one change to the cache of `userID` in one transaction (discarding another user's cache first). */
  saveChange(userID: number, change: EntityCacheChange): Promise<void>;
  /** Empties the cache (the database itself stays; logout deletes it). */
  clear(): Promise<void>;
  /** Closes this tab's connection (the next use opens it again). */
  close(): Promise<void>;
}

type WriteTransaction = IDBPTransaction<EntityCacheSchema, EntityCacheStoreName[], 'readwrite'>;

/**
 * The cache kept in the IndexedDB database `databaseName`: its reader (entity-cache-reader.ts, the same
 * connection) and the writes. Each read goes through the reader's method at call time.
 */
export function entityCache(databaseName: string): EntityCache {
  const reader = entityCacheReader(databaseName);

  /** Runs `step` in one read-write transaction over every store, after making `userID` the owner. */
  async function write(userID: number, step: (tx: WriteTransaction) => Promise<void>): Promise<void> {
    const db = await reader.database();
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

  return {
    read: (userID) => reader.read(userID),
    readStart: (userID) => reader.readStart(userID),
    clear: () => reader.clear(),
    close: () => reader.close(),
    async saveSnapshot(userID, snapshot) {
      await write(userID, async (tx) => {
        const meta = tx.objectStore('meta');
        const stored = await meta.get('snapshot');
        if (isSnapshot(stored) && stored.sinceTime > snapshot.sinceTime) return;
        const { encryptedData, header, format, sinceTime } = snapshot;
        await meta.put({ encryptedData, header, format, sinceTime }, 'snapshot');
      });
    },

    async saveKey(userID, key) {
      await write(userID, async (tx) => {
        await tx.objectStore('key').put({ encryptedKey: key.encryptedKey, header: key.header }, 'current');
      });
    },

    async saveChange(userID, change) {
      await write(userID, async (tx) => {
        const entities = tx.objectStore('entities');
        const meta = tx.objectStore('meta');
        const { requires } = change;
        if (requires) {
          const held = (await entities.get(requires.id))?.updatedAt ?? 0;
          if (held < requires.atLeast || (requires.atMost !== undefined && held > requires.atMost)) return;
        }
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
          const from = change.syncFrom ?? 0;
          steps.push(
            meta.get('sync').then((stored) => {
              const previous = isSyncState(stored) ? stored.sinceTime : 0;
              if (previous < from) return undefined;
              return meta.put({ ...next, sinceTime: Math.max(previous, next.sinceTime) }, 'sync');
            }),
          );
        }
        await Promise.all(steps);
      });
    },
  };
}
