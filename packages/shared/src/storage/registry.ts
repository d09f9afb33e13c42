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
// - The schemas use zod/mini: this module is part of every page's first load (the log needs it), and
//   mini is a fraction of the size of classic zod, which is only loaded with the HTTP client.
import * as z from 'zod/mini';

/** The stored user record (protocol §10.1). "Logged in" means id, email and token are all present. */
export const userRecordSchema = z.looseObject({
  id: z.optional(z.int()),
  email: z.optional(z.string()),
  token: z.optional(z.string()),
  encryptedToken: z.optional(z.string()),
  isTwoFactorEnabled: z.optional(z.boolean()),
  twoFactorSessionID: z.optional(z.string()),
  passkeySessionID: z.optional(z.string()),
});

/** One line of the persisted log (see log.ts). */
export const logEntrySchema = z.object({ logLine: z.string(), timestamp: z.number() });

/** A key stashed in session storage, wrapped under a random key kept next to it (protocol §10.3). */
export const sessionKeySchema = z.object({ encryptedData: z.string(), key: z.string(), nonce: z.string() });

// Flag records hold a status boolean; the referral record holds a source (spec §3).
const flagSchema = z.object({ status: z.boolean() });
const referralSchema = z.object({ source: z.string() });
// Values whose layout belongs to a later issue (key attributes, SRP, subscription, …): any JSON object
// for now; the issue that uses one narrows its schema here (e.g. to the protocol's KeyAttributes).
const recordSchema = z.record(z.string(), z.unknown());

export const storageRegistry = {
  // Local storage: the account.
  user: local(userRecordSchema),
  keyAttributes: local(recordSchema),
  originalKeyAttributes: local(recordSchema),
  srpSetupAttributes: local(recordSchema),
  srpAttributes: local(recordSchema),
  isFirstLogin: local(flagSchema),
  justSignedUp: local(flagSchema),
  showBackButton: local(flagSchema),
  referralSource: local(referralSchema),
  subscription: local(recordSchema),
  familyData: local(recordSchema),
  userDetails: local(recordSchema),
  export: local(recordSchema),
  collectionSortBy: local(z.union([z.string(), z.number()])),
  mapEnabled: local(flagSchema),
  cfProxyDisabled: local(flagSchema),
  // Local storage: this device's preferences and diagnostics, kept across logout.
  theme: local(z.enum(['dark', 'light']), { keptOnLogout: true }),
  locale: local(z.string(), { keptOnLogout: true }),
  logs: local(z.array(logEntrySchema), { keptOnLogout: true }),

  // Session storage: unlocked keys for this tab only.
  encryptionKey: session(sessionKeySchema),
  keyEncryptionKey: session(sessionKeySchema),
  inflightPasskeySessionID: session(z.string()),

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
export type StoredValue<K extends LocalKey | SessionKey> = z.output<Registry[K]['schema']>;
export type UserRecord = z.output<typeof userRecordSchema>;
export type LogEntry = z.output<typeof logEntrySchema>;

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

function local<S extends z.ZodMiniType>(schema: S, options: EntryOptions = {}) {
  return { area: 'local' as const, schema, clearedOnLogout: !options.keptOnLogout };
}

function session<S extends z.ZodMiniType>(schema: S) {
  // Session storage is cleared as a whole on logout, so nothing there can be kept.
  return { area: 'session' as const, schema, clearedOnLogout: true };
}

function kv(options: EntryOptions = {}) {
  return { area: 'kv' as const, clearedOnLogout: !options.keptOnLogout };
}
