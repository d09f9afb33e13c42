// The accessors of the local-storage keys (the shell's registry, registry.ts, declares its keys, an app its own):
// `saved…` reads, `save…` writes, `remove…` deletes. Values are JSON; a value that is missing,
// unparsable or of the wrong shape reads as undefined (and is logged), so a stale or hand-edited entry
// can never crash a page, and reading is safe in the static prerender, where there is no local storage.
// The logs are read and written by log.ts, which must not log about its own storage.
import { log } from '../log.ts';
import { removeKV, saveKV } from './kv.ts';
import { storageRegistry, type AppLocalKey, type LocalKey, type LocalValue, type UserRecord } from './registry.ts';
import type { Shape } from './shape.ts';

export type { UserRecord } from './registry.ts';

export function savedTheme(): 'dark' | 'light' | undefined {
  return readLocal('theme');
}

/** Saves the theme; a failure (storage full or blocked) is logged, as the choice still applies. */
export function saveTheme(mode: 'dark' | 'light'): void {
  writePreference('theme', mode);
}

/** The locale the user picked, as saved (whether it is supported is the caller's question). */
export function savedLocale(): string | undefined {
  return readLocal('locale');
}

/** Saves the locale the user picked; a failure is logged, as the choice still applies. */
export function saveLocale(locale: string): void {
  writePreference('locale', locale);
}

export function savedUser(): UserRecord | undefined {
  return readLocal('user');
}

/**
 * Replaces the stored user record and its mirror in the kv database: the token and the numeric id are
 * copied to kv `token` and `userID` (as a string), which is what authenticated requests read. The
 * mirror is written first: if the local-storage write then fails, no token is left in local storage
 * without its kv copy.
 */
export async function saveUser(user: UserRecord): Promise<void> {
  await (user.token ? saveKV('token', user.token) : removeKV('token'));
  await (user.id !== undefined ? saveKV('userID', String(user.id)) : removeKV('userID'));
  localStorage.setItem('user', JSON.stringify(user));
}

/** Merges fields into the stored user record (e.g. during login, when it is built up step by step). */
export async function updateSavedUser(fields: Partial<UserRecord>): Promise<void> {
  await saveUser({ ...savedUser(), ...fields });
}

/** Removes the user record and its mirror. */
export async function removeSavedUser(): Promise<void> {
  localStorage.removeItem('user');
  await removeKV('token');
  await removeKV('userID');
}

/**
 * Reads and checks a registered JSON value; anything unreadable is undefined. Exported for the
 * per-key accessors of other modules (account-storage.ts); pages use those accessors.
 */
export function readLocal<K extends LocalKey>(key: K): LocalValue<K> | undefined {
  if (typeof localStorage === 'undefined') return undefined;
  const shape = storageRegistry.localStorage.keys[key].shape;
  return readStoredJSON(localStorage, key, shape, 'stored value') as LocalValue<K> | undefined;
}

/**
 * Reads the JSON value of `key` in a web storage and checks it against `shape`; a value that cannot be
 * read, is not JSON or has another shape is undefined, and the log says which (as "the <what> of key").
 * Shared by the local-storage and session-storage accessors.
 */
export function readStoredJSON(storage: Storage, key: string, shape: Shape<unknown>, what: string): unknown {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch (e) {
    log.warn(`Could not read the ${what} of ${key}`, e);
    return undefined;
  }
  if (raw === null) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    log.warn(`Ignoring the ${what} of ${key}: it is not JSON`);
    return undefined;
  }
  const parsed = shape.safeParse(json);
  if (!parsed.success) {
    log.warn(`Ignoring the ${what} of ${key}: unexpected shape`);
    return undefined;
  }
  return parsed.data;
}

/** Writes a registered JSON value; a failure (storage full or blocked) throws. */
export function writeLocal<K extends LocalKey>(key: K, value: LocalValue<K>): void {
  localStorage.setItem(key, JSON.stringify(value));
}

/** Reads and checks the JSON value of an app's own key (its `AppStorage`); anything unreadable is undefined. */
export function readAppLocal<T>(key: AppLocalKey<T>): T | undefined {
  if (typeof localStorage === 'undefined') return undefined;
  return readStoredJSON(localStorage, key.name, key.shape, 'stored value') as T | undefined;
}

/** Writes the JSON value of an app's own key; a failure (storage full or blocked) throws. */
export function writeAppLocal<T>(key: AppLocalKey<T>, value: T): void {
  localStorage.setItem(key.name, JSON.stringify(value));
}

/** Removes a registered key. */
export function removeLocal(key: LocalKey): void {
  localStorage.removeItem(key);
}

/** Writes a preference, logging instead of throwing: the choice applies to this tab either way. */
function writePreference<K extends 'theme' | 'locale'>(key: K, value: LocalValue<K>): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    log.warn(`Could not save the ${key} preference`, e);
  }
}
