// The auth app's cache of the encrypted vault: an entity cache (sync/entity-cache.ts) in the IndexedDB
// database that the auth app's storage declares (`authenticatorDB`, storage.ts), so that logout deletes
// it. A reload reads the snapshot (one record: every item, encrypted as one Blob) when there is one of
// this build, and every entity record otherwise; then it pulls only the diff since the cursor.
import type { VaultItem } from '../services/types.ts';
import { authenticatorDB } from '../storage.ts';
import { entityCache, type CachedSnapshot, type CachedStore } from './sync/entity-cache.ts';

export type { CachedEntity, CachedKey, CachedSyncState, EntityCacheChange } from './sync/entity-cache.ts';

/** Everything cached of one user's vault: the snapshot and no entity records, or the entity records. */
export type AuthenticatorCache = CachedStore & { snapshot?: CachedSnapshot };

/** What a snapshot's Blob holds (JSON). */
export interface SnapshotContent {
  items: VaultItem[];
  cursor: number;
  timeOffsetMs: number;
}

export const authenticatorCache = entityCache(authenticatorDB.database);

/**
 * The snapshot holds items as this build's parser made them, so only this build reads it (another
 * build reads the entity records and writes a snapshot of its own).
 */
export function snapshotFormat(): string {
  const buildId = (globalThis as { __NEXT_DATA__?: { buildId?: unknown } }).__NEXT_DATA__?.buildId;
  return `vault-items-1:${typeof buildId === 'string' ? buildId : 'unbuilt'}`;
}

/** The cache of `userID` for opening the vault: the snapshot when there is a usable one, else every entity. */
export async function readAuthenticatorCache(userID: number): Promise<AuthenticatorCache> {
  const start = await authenticatorCache.readStart(userID);
  if (start.key && start.snapshot?.format === snapshotFormat()) {
    return { key: start.key, snapshot: start.snapshot, entities: [] };
  }
  return authenticatorCache.read(userID);
}
