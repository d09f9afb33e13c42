// Typed access to the session-storage keys of the registry (registry.ts): keys unlocked for this tab
// only. Values are JSON; an unreadable value reads as undefined (and is logged).
import { readStoredJSON } from './local-storage.ts';
import type { SessionKey, StoredValue } from './registry.ts';

export function getSessionData<K extends SessionKey>(key: K): StoredValue<K> | undefined {
  return readStoredJSON(sessionStorage, key);
}

export function setSessionData<K extends SessionKey>(key: K, value: StoredValue<K>): void {
  sessionStorage.setItem(key, JSON.stringify(value));
}

export function removeSessionData(key: SessionKey): void {
  sessionStorage.removeItem(key);
}
