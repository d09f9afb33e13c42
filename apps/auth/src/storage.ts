// What the auth app keeps in the browser beyond the shell's declaration (packages/shared/src/storage/
// registry.ts), handed to the shell by `createApp({ storage })` in _app.tsx so that logout clears it too.
// See: [Note: Storage registry]
// The cache names come from cache-names.json, which the service worker's build script
// (scripts/service-worker.mjs, plain Node) reads as well: one source for each name.
import { appLocalKey, type AppStorage } from '@ente/shared/storage/registry.ts';
import * as s from '@ente/shared/storage/shape.ts';

import cacheNames from './cache-names.json';

/** How the codes are listed on this device (docs/product.md#the-codes); kept on logout. */
export const authDisplayKey = appLocalKey(
  'authDisplay',
  s.object({
    compact: s.optional(s.boolean),
    hideCodes: s.optional(s.boolean),
    sort: s.optional(s.oneOf('issuer', 'account', 'recent', 'manual')),
  }),
  { keptOnLogout: true },
);

/** The idle lock on this device: minutes without activity before the tab locks (0: never); kept on logout. */
export const authIdleLockKey = appLocalKey('authIdleLock', s.object({ minutes: s.integer }), { keptOnLogout: true });

export type AuthDisplay = s.Infer<typeof authDisplayKey.shape>;

/**
 * The cache of the encrypted vault (vault/cache.ts, through idb): the encrypted authenticator key,
 * the encrypted entities and the last diff timestamp.
 */
export const authenticatorDB = { kind: 'idb', database: 'ente-auth', clearedOnLogout: true } as const;

/**
 * The service worker's precache holds the app's own files (HTML, scripts, fonts, the brand icons' index):
 * public and the same for every visitor, but logout leaves nothing of a session behind, so it goes too,
 * with the worker itself (logout.ts); the next sign-in registers and fills it again. Workbox names it
 * `<cacheId>-precache-v2-<scope>` (`ente-auth-precache-v2-https://auth.example.org/`), hence the prefix.
 */
export const appFilesCache = {
  kind: 'cache',
  cache: `${cacheNames.precachePrefix}-precache-v2`,
  byPrefix: true,
  clearedOnLogout: true,
} as const;

/**
 * The brand icons the cards have shown: no secret, but they tell which services the account has codes
 * for, so logout deletes them.
 */
export const brandIconsCache = { kind: 'cache', cache: cacheNames.brandIcons, clearedOnLogout: true } as const;

export const authStorage: AppStorage = {
  localKeys: [authDisplayKey, authIdleLockKey],
  places: [authenticatorDB, appFilesCache, brandIconsCache],
};
