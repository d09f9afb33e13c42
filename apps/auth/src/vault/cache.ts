// The auth app's cache of the encrypted vault: an entity cache (@ente/shared/sync/entity-cache.ts) in the IndexedDB
// database that the auth app's storage declares (`authenticatorDB`, storage.ts), so that logout deletes
// it. A reload reads the snapshot (one record: every item, encrypted as one Blob) when there is one of
// this build, and every entity record otherwise (cache-read.ts, which vault-start imports without the
// writes); then it pulls only the diff since the cursor.
import { entityCache } from '@ente/shared/sync/entity-cache.ts';

import type { VaultItem } from '../services/types.ts';
import { authenticatorDB } from '../storage.ts';

export type { CachedEntity, CachedKey, CachedSyncState, EntityCacheChange } from '@ente/shared/sync/entity-cache.ts';
export {
  authenticatorCacheReader,
  readAuthenticatorCache,
  snapshotFormat,
  type AuthenticatorCache,
} from './cache-read.ts';

/** What a snapshot's Blob holds (JSON). */
export interface SnapshotContent {
  items: VaultItem[];
  cursor: number;
  timeOffsetMs: number;
}

export const authenticatorCache = entityCache(authenticatorDB.database);
