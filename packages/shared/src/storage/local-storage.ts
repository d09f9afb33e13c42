// Typed access to the local-storage keys of the registry (registry.ts). Values are JSON; a value that is
// missing, unparsable or of the wrong shape reads as undefined (and is logged), so a stale or hand-edited
// entry can never crash a page. The user record is written only through user.ts (it is mirrored into kv)
// and the logs only through log.ts.
import { log } from '../log.ts';
import { storageRegistry, type LocalKey, type SessionKey, type StoredValue } from './registry.ts';

/** Local keys written through their own module instead of setData. */
type OwnedLocalKey = 'user' | 'logs';

export function getData<K extends LocalKey>(key: K): StoredValue<K> | undefined {
  return readStoredJSON(localStorage, key);
}

export function setData<K extends Exclude<LocalKey, OwnedLocalKey>>(key: K, value: StoredValue<K>): void {
  localStorage.setItem(key, JSON.stringify(value));
}

export function removeData(key: Exclude<LocalKey, OwnedLocalKey>): void {
  localStorage.removeItem(key);
}

/** Reads and validates a registered JSON value of local or session storage (shared with session-storage.ts). */
export function readStoredJSON<K extends LocalKey | SessionKey>(storage: Storage, key: K): StoredValue<K> | undefined {
  const raw = storage.getItem(key);
  if (raw === null) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    log.warn(`Ignoring the stored value of ${key}: it is not JSON`);
    return undefined;
  }
  const parsed = storageRegistry[key].shape.safeParse(json);
  if (!parsed.success) {
    log.warn(`Ignoring the stored value of ${key}: unexpected shape`);
    return undefined;
  }
  return parsed.data as StoredValue<K>;
}
