// The shell's declaration of what the family keeps in the browser: the keys of local storage, session
// storage and the `kv` IndexedDB database (with the shape of each value), each with whether logout
// clears it. An app declares its own keys, databases and caches (`AppStorage`) and hands them to the
// shell with `createApp({ storage })`; logout walks the union. See: [Note: Storage registry]
//
// [Note: Storage registry]
// Every module that reads or writes browser storage takes its names from a declaration: the shell's here
// (local-storage.ts, kv.ts, log.ts), an app's in its own src/storage.ts, so nothing can be stored without
// one. Logout (logout.ts) walks `storagePlaces()`: a place marked `clearedOnLogout` loses everything in it
// except the keys marked `keptOnLogout`; a test walks it again to prove nothing marked cleared remains.
// The layouts are those of docs/protocol.md#browser-storage; the choices where it left room are in
// docs/decisions.md#browser-storage-and-logout:
// - `apiOrigin` lives only in the kv database, not in local storage.
// - Device preferences survive logout: `logs`, `theme`, `locale` and `apiOrigin` describe this
//   browser, not the account; a self-hoster must not be sent back to the hosted server silently.
// - Local and session values are JSON. Session storage is cleared as a whole on logout, local storage
//   too but for the kept keys, so a key of the spec that no code reads is not declared at all.
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
      referralSource: stored(referralShape),
      // This device's preferences and diagnostics.
      theme: stored(s.oneOf('dark', 'light'), kept),
      locale: stored(s.string, kept),
      logs: stored(s.arrayOf(logEntryShape), kept),
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
} as const;

type Registry = typeof storageRegistry;
type LocalKeys = Registry['localStorage']['keys'];

/** A local-storage key of an app: its name, the shape of its JSON value, and whether logout keeps it. */
export interface AppLocalKey<T> {
  name: string;
  shape: s.Shape<T>;
  keptOnLogout: boolean;
}

/** A place of its own that an app keeps data in: an IndexedDB database, a localforage database, a cache. */
export type AppPlace =
  | { kind: 'idb'; database: string; clearedOnLogout: boolean }
  | { kind: 'localforage'; database: string; objectStore: string; clearedOnLogout: boolean }
  /** `byPrefix`: every cache whose name starts with `cache` (Workbox appends the worker's scope). */
  | { kind: 'cache'; cache: string; byPrefix?: boolean; clearedOnLogout: boolean };

/** What an app keeps in the browser beyond the shell's; handed to the shell by `createApp({ storage })`. */
export interface AppStorage {
  localKeys?: readonly AppLocalKey<unknown>[];
  places?: readonly AppPlace[];
}

type ShellPlace = {
  [K in keyof Registry]: Omit<Registry[K], 'clearedOnLogout'> & { clearedOnLogout: boolean };
}[keyof Registry];

/**
 * A place (local storage, a database, a cache) and what logout does with it. Whether logout clears it
 * is a boolean here, not the literal of today's entry, so that code walking the places keeps asking.
 * The local-storage place lists the app's keys next to the shell's.
 */
export type StoragePlace =
  | Exclude<ShellPlace, { kind: 'localStorage' }>
  | { kind: 'localStorage'; clearedOnLogout: boolean; keys: Record<string, { keptOnLogout: boolean }> }
  | AppPlace;
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

let appStorage: AppStorage = {};

/** Declares the running app's storage (createApp does, when the app's `_app` loads). */
export function declareAppStorage(storage: AppStorage): void {
  appStorage = storage;
}

/** A local-storage key of an app, for its `AppStorage`; read and written with `readAppLocal`/`writeAppLocal`. */
export function appLocalKey<T>(name: string, shape: s.Shape<T>, { keptOnLogout }: { keptOnLogout: boolean }) {
  return { name, shape, keptOnLogout } satisfies AppLocalKey<T>;
}

/** The places of the shell and the running app, in the order logout clears them. */
export function storagePlaces(): StoragePlace[] {
  const { localStorage: local, ...shell } = storageRegistry;
  const appKeys = Object.fromEntries((appStorage.localKeys ?? []).map((key) => [key.name, key]));
  return [{ ...local, keys: { ...local.keys, ...appKeys } }, ...Object.values(shell), ...(appStorage.places ?? [])];
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
