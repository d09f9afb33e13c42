// The auth app's cache of the encrypted vault: an entity cache (sync/entity-cache.ts) in the IndexedDB
// database that the auth app's storage declares (`authenticatorDB`, storage.ts), so that logout deletes
// it. A reload shows the codes from here and pulls only the diff since the cursor kept here.
import { authenticatorDB } from '../storage.ts';
import { entityCache, type CachedStore } from './sync/entity-cache.ts';

export type { CachedEntity, CachedKey, CachedSyncState, EntityCacheChange } from './sync/entity-cache.ts';

/** Everything cached of one user's vault. */
export type AuthenticatorCache = CachedStore;

export const authenticatorCache = entityCache(authenticatorDB.database);
