// The one declaration of every key this product keeps in the browser: where it lives (local storage,
// session storage or the `kv` IndexedDB database), the shape of its value, and whether logout clears it.
// See: [Note: Storage registry]
//
// [Note: Storage registry]
// Everything that reads or writes browser storage goes through a module that takes its keys from this
// registry (local-storage.ts, session-storage.ts, kv.ts, user.ts, log.ts), so a key cannot exist without
// an entry here. Logout (logout.ts) walks the registry: it removes every entry marked
// `clearedOnLogout`, keeps the others, and a test walks it again to prove nothing marked cleared remains.
//
// Decisions:
// - `apiOrigin` lives only in the kv database. The product spec lists it among the local-storage keys
//   (an older era), but the wire contract (protocol §1.1, §10.2) and the foundation issue read it from
//   kv, so we keep one copy there.
// - Device preferences survive logout: `logs` (as the spec says), and also `theme`, `locale` and
//   `apiOrigin`. They describe this browser, not the account: a user expects their theme and language
//   to stay after signing out, and a self-hoster must not be silently sent back to the hosted server
//   (where they might type their e-mail) just because they signed out.
// - Local and session values are stored as JSON. Session storage is cleared as a whole on logout.
// - The shapes are checked with shape.ts, not zod: this module is part of every page's first load (the
//   log needs it), and zod is loaded only with the HTTP client.
import * as s from './shape.ts';

/** The stored user record (protocol §10.1). "Logged in" means id, email and token are all present. */
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

/** A key stashed in session storage, wrapped under a random key kept next to it (protocol §10.3). */
export const sessionKeyShape = s.object({ encryptedData: s.string, key: s.string, nonce: s.string });

// Flag records hold a status boolean; the referral record holds a source (spec §3).
const flagShape = s.object({ status: s.boolean });
const referralShape = s.object({ source: s.string });
// Values whose layout belongs to a later issue (key attributes, SRP, subscription, …): any JSON object
// for now; the issue that uses one narrows its schema here (e.g. to the protocol's KeyAttributes).
const recordShape = s.anyObject;

export const storageRegistry = {
  // Local storage: the account.
  user: local(userRecordShape),
  keyAttributes: local(recordShape),
  originalKeyAttributes: local(recordShape),
  srpSetupAttributes: local(recordShape),
  srpAttributes: local(recordShape),
  isFirstLogin: local(flagShape),
  justSignedUp: local(flagShape),
  showBackButton: local(flagShape),
  referralSource: local(referralShape),
  subscription: local(recordShape),
  familyData: local(recordShape),
  userDetails: local(recordShape),
  export: local(recordShape),
  collectionSortBy: local(s.either(s.string, s.number)),
  mapEnabled: local(flagShape),
  cfProxyDisabled: local(flagShape),
  // Local storage: this device's preferences and diagnostics, kept across logout.
  theme: local(s.oneOf('dark', 'light'), { keptOnLogout: true }),
  locale: local(s.string, { keptOnLogout: true }),
  logs: local(s.arrayOf(logEntryShape), { keptOnLogout: true }),

  // Session storage: unlocked keys for this tab only.
  encryptionKey: session(sessionKeyShape),
  keyEncryptionKey: session(sessionKeyShape),
  inflightPasskeySessionID: session(s.string),

  // The kv IndexedDB database: strings only.
  token: kv(),
  userID: kv(),
  apiOrigin: kv({ keptOnLogout: true }),
} as const;

export type StorageKey = keyof typeof storageRegistry;
type Registry = typeof storageRegistry;
type KeysIn<Area extends StorageArea> = {
  [K in StorageKey]: Registry[K]['area'] extends Area ? K : never;
}[StorageKey];

export type StorageArea = 'local' | 'session' | 'kv';
export type LocalKey = KeysIn<'local'>;
export type SessionKey = KeysIn<'session'>;
export type KVKey = KeysIn<'kv'>;
/** The value stored under a local or session key. */
export type StoredValue<K extends LocalKey | SessionKey> = s.Infer<Registry[K]['shape']>;
export type UserRecord = s.Infer<typeof userRecordShape>;
export type LogEntry = s.Infer<typeof logEntryShape>;

/** The registry as a list, for code that walks it (logout, tests). */
export function registryEntries(): { key: StorageKey; area: StorageArea; clearedOnLogout: boolean }[] {
  return (Object.keys(storageRegistry) as StorageKey[]).map((key) => ({
    key,
    area: storageRegistry[key].area,
    clearedOnLogout: storageRegistry[key].clearedOnLogout,
  }));
}

/** The keys of an area that logout must keep. */
export function keysKeptOnLogout(area: StorageArea): StorageKey[] {
  return registryEntries()
    .filter((entry) => entry.area === area && !entry.clearedOnLogout)
    .map((entry) => entry.key);
}

interface EntryOptions {
  keptOnLogout?: boolean;
}

function local<S extends s.Shape<unknown>>(shape: S, options: EntryOptions = {}) {
  return { area: 'local' as const, shape, clearedOnLogout: !options.keptOnLogout };
}

function session<S extends s.Shape<unknown>>(shape: S) {
  // Session storage is cleared as a whole on logout, so nothing there can be kept.
  return { area: 'session' as const, shape, clearedOnLogout: true };
}

function kv(options: EntryOptions = {}) {
  return { area: 'kv' as const, clearedOnLogout: !options.keptOnLogout };
}
