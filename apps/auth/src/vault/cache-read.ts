// The reads of the auth app's vault cache (cache.ts) that a reload starts with, without the cache's writes:
// vault-start runs them before the vault's chunk (which brings the writes) has arrived. The same connection
// as cache.ts (one reader per database, @ente/shared/sync/entity-cache-reader.ts).
import { entityCacheReader } from '@ente/shared/sync/entity-cache-reader.ts';
import type { CachedSnapshot, CachedStore } from '@ente/shared/sync/entity-cache.ts';

import { authenticatorDB } from '../storage.ts';

/** Everything cached of one user's vault: the snapshot and no entity records, or the entity records. */
export type AuthenticatorCache = CachedStore & { snapshot?: CachedSnapshot };

/** Reads the auth app's cache; `authenticatorCache` (cache.ts) adds the writes over the same connection. */
export const authenticatorCacheReader = entityCacheReader(authenticatorDB.database);

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
  const start = await authenticatorCacheReader.readStart(userID);
  if (start.key && start.snapshot?.format === snapshotFormat()) {
    return { key: start.key, snapshot: start.snapshot, entities: [] };
  }
  return authenticatorCacheReader.read(userID);
}
