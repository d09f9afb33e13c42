// The one declaration of everything this product keeps in the browser: the keys of local storage,
// session storage and the `kv` IndexedDB database (with the shape of each value), the localforage
// database of file data and the Cache Storage caches, each with whether logout clears it.
// See: [Note: Storage registry]
//
// [Note: Storage registry]
// Every module that reads or writes browser storage takes its names from this registry
// (local-storage.ts, kv.ts, local-forage.ts, log.ts), so nothing can be stored without an entry here.
// Logout (logout.ts) walks the registry: a place marked `clearedOnLogout` loses everything in it
// except the keys marked `keptOnLogout`; a test walks it again to prove nothing marked cleared remains.
// The layouts are those of docs/protocol.md#browser-storage; the choices where it left room are in
// docs/decisions.md#browser-storage-and-logout:
// - `apiOrigin` lives only in the kv database, not in local storage.
// - Device preferences survive logout: `logs`, `theme`, `locale` and `apiOrigin` describe this
//   browser, not the account; a self-hoster must not be sent back to the hosted server silently.
// - Local and session values are JSON. Session storage is cleared as a whole on logout.
// - The shapes are checked with shape.ts, not zod: this module is part of every page's first load
//   (the log needs it), and zod loads only with the HTTP client.
import * as s from './shape.ts';

/**
 * The stored user record (docs/protocol.md#local-storage). "Logged in" means id, email and token are
 * all present.
 */
export const userRecordShape = s.object({
  id: s.optional(s.integer),
  email: s.optional(s.string),
  token: s.optional(s.string),
  encryptedToken: s.optional(s.string),
  isTwoFactorEnabled: s.optional(s.boolean),
  twoFactorSessionID: s.optional(s.string),
  passkeySessionID: s.optional(s.string),
});

/** One line of the persisted log (see log.ts). */
export const logEntryShape = s.object({ logLine: s.string, timestamp: s.number });

/**
 * A key stashed in session storage, wrapped under a random key kept next to it
 * (docs/protocol.md#session-storage).
 */
const sessionKeyShape = s.object({ encryptedData: s.string, key: s.string, nonce: s.string });

// Flag records hold a status boolean; the referral record holds a source.
const flagShape = s.object({ status: s.boolean });
const referralShape = s.object({ source: s.string });
// Values whose layout belongs to later work (subscription, …): any JSON object for now; the code that
// first uses one narrows its shape here.
const recordShape = s.anyObject;

/**
 * Key attributes as kept locally (docs/protocol.md#key-attributes): `keyAttributes` (the interactive
 * variant after the first login, docs/protocol.md#interactive-key-attributes) and
 * `originalKeyAttributes`. The recovery fields and `kekHash` may be absent or "".
 */
export const keyAttributesShape = s.object({
  kekSalt: s.string,
  opsLimit: s.integer,
  memLimit: s.integer,
  encryptedKey: s.string,
  keyDecryptionNonce: s.string,
  publicKey: s.string,
  encryptedSecretKey: s.string,
  secretKeyDecryptionNonce: s.string,
  masterKeyEncryptedWithRecoveryKey: s.optional(s.string),
  masterKeyDecryptionNonce: s.optional(s.string),
  recoveryKeyEncryptedWithMasterKey: s.optional(s.string),
  recoveryKeyDecryptionNonce: s.optional(s.string),
  kekHash: s.optional(s.string),
});

/** What sign-up registers as SRP verifier after the e-mail check (docs/protocol.md#sign-up). */
export const srpSetupAttributesShape = s.object({
  srpUserID: s.string,
  srpSalt: s.string,
  srpVerifier: s.string,
  loginSubKey: s.string,
});

/** The `attributes` of `GET /users/srp/attributes` (docs/protocol.md#srp-login). */
export const srpAttributesShape = s.object({
  srpUserID: s.string,
  srpSalt: s.string,
  memLimit: s.integer,
  opsLimit: s.integer,
  kekSalt: s.string,
  isEmailMFAEnabled: s.boolean,
});

/** How the auth app lists codes on this device. */
export const authDisplayShape = s.object({
  compact: s.optional(s.boolean),
  hideCodes: s.optional(s.boolean),
  sort: s.optional(s.oneOf('issuer', 'account', 'recent', 'manual')),
});

/** The auth app's idle lock on this device: minutes without activity before the tab locks (0: never). */
export const authIdleLockShape = s.object({ minutes: s.integer });

// Whether logout keeps a key of a place it clears.
const kept = { keptOnLogout: true } as const;
const notKept = { keptOnLogout: false } as const;

export const storageRegistry = {
  localStorage: {
    kind: 'localStorage',
    clearedOnLogout: true,
    keys: {
      // The account.
      user: stored(userRecordShape),
      keyAttributes: stored(keyAttributesShape),
      originalKeyAttributes: stored(keyAttributesShape),
      srpSetupAttributes: stored(srpSetupAttributesShape),
      srpAttributes: stored(srpAttributesShape),
      isFirstLogin: stored(flagShape),
      justSignedUp: stored(flagShape),
      showBackButton: stored(flagShape),
      referralSource: stored(referralShape),
      subscription: stored(recordShape),
      familyData: stored(recordShape),
      userDetails: stored(recordShape),
      export: stored(recordShape),
      collectionSortBy: stored(s.either(s.string, s.number)),
      mapEnabled: stored(flagShape),
      cfProxyDisabled: stored(flagShape),
      // This device's preferences and diagnostics.
      theme: stored(s.oneOf('dark', 'light'), kept),
      locale: stored(s.string, kept),
      logs: stored(s.arrayOf(logEntryShape), kept),
      // The auth app's display options and idle lock on this device (docs/product.md#the-codes).
      authDisplay: stored(authDisplayShape, kept),
      authIdleLock: stored(authIdleLockShape, kept),
    },
  },
  // Unlocked keys for this tab only.
  sessionStorage: {
    kind: 'sessionStorage',
    clearedOnLogout: true,
    keys: {
      encryptionKey: stored(sessionKeyShape),
      keyEncryptionKey: stored(sessionKeyShape),
      inflightPasskeySessionID: stored(s.string),
      // The accounts app the server named for the passkey sign-in under way.
      passkeyAccountsUrl: stored(s.string),
    },
  },
  // The IndexedDB database `kv` (docs/protocol.md#indexeddb): strings only. Logout deletes it and
  // writes the kept keys back.
  kv: {
    kind: 'kv',
    database: 'kv',
    version: 1,
    objectStore: 'kv',
    clearedOnLogout: true,
    keys: { token: notKept, userID: notKept, apiOrigin: kept },
  },
  // The auth app's cache of the encrypted vault, through idb (authenticator-db.ts): the encrypted
  // authenticator key, the encrypted entities and the last diff timestamp. Logout deletes it.
  authenticatorDB: { kind: 'idb', database: 'ente-auth', clearedOnLogout: true },
  // File data of Photos, through localforage (docs/protocol.md#indexeddb).
  files: { kind: 'localforage', database: 'ente-files', objectStore: 'files', clearedOnLogout: true },
  // Cache Storage caches of file data (docs/protocol.md#caches).
  thumbsCache: { kind: 'cache', cache: 'thumbs', clearedOnLogout: true },
  faceCropsCache: { kind: 'cache', cache: 'face-crops', clearedOnLogout: true },
  filesCache: { kind: 'cache', cache: 'files', clearedOnLogout: true },
  // The auth app's service worker (apps/auth/scripts/service-worker.mjs). Its precache holds the app's
  // own files (HTML, scripts, fonts, the brand icons' index): public and the same for every visitor,
  // but logout leaves nothing of a session behind, so it goes too, with the worker itself (logout.ts);
  // the next sign-in registers and fills it again. Workbox appends the worker's scope to this name
  // (`ente-auth-precache-v2-https://auth.example.org/`), hence the prefix.
  authAppFilesCache: { kind: 'cache', cache: 'ente-auth-precache-v2', byPrefix: true, clearedOnLogout: true },
  // The brand icons the cards have shown: no secret, but they tell which services the account has codes
  // for, so logout deletes them.
  authBrandIconsCache: { kind: 'cache', cache: 'ente-auth-brand-icons', clearedOnLogout: true },
} as const;

type Registry = typeof storageRegistry;
type LocalKeys = Registry['localStorage']['keys'];

/**
 * A place of the registry (local storage, a database, a cache) and what logout does with it. Whether
 * logout clears it is a boolean here, not the literal of today's entry, so that code walking the
 * registry keeps asking.
 */
export type StoragePlace = {
  [K in keyof Registry]: Omit<Registry[K], 'clearedOnLogout'> & { clearedOnLogout: boolean };
}[keyof Registry];
export type LocalKey = keyof LocalKeys;
export type KVKey = keyof Registry['kv']['keys'];
/** The value stored under a local-storage key. */
export type LocalValue<K extends LocalKey> = s.Infer<LocalKeys[K]['shape']>;
export type UserRecord = s.Infer<typeof userRecordShape>;
export type StoredKeyAttributes = s.Infer<typeof keyAttributesShape>;
export type StoredSrpSetupAttributes = s.Infer<typeof srpSetupAttributesShape>;
export type StoredSrpAttributes = s.Infer<typeof srpAttributesShape>;
export type SessionKey = keyof Registry['sessionStorage']['keys'];
/** The value stored under a session-storage key. */
export type SessionValue<K extends SessionKey> = s.Infer<Registry['sessionStorage']['keys'][K]['shape']>;
export type LogEntry = s.Infer<typeof logEntryShape>;
export type AuthDisplay = s.Infer<typeof authDisplayShape>;
export type AuthIdleLock = s.Infer<typeof authIdleLockShape>;

/** The places of the registry, in the order logout clears them. */
export function storagePlaces(): StoragePlace[] {
  return Object.values(storageRegistry);
}

/** The keys of a place that logout keeps (none for a place without keys). */
export function keysKeptOnLogout(place: StoragePlace): string[] {
  if (!('keys' in place)) return [];
  const keys: Record<string, { keptOnLogout: boolean }> = place.keys;
  return Object.keys(keys).filter((key) => keys[key]?.keptOnLogout);
}

function stored<S extends s.Shape<unknown>>(shape: S, keep: { keptOnLogout: boolean } = notKept) {
  return { shape, keptOnLogout: keep.keptOnLogout };
}
