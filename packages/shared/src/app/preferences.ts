// The shell's two saved preferences, theme and locale, kept in local storage through the storage
// registry (spec §3) as plain JSON strings ("dark", "fr-FR"). Reading is safe during the static
// prerender, where there is no local storage: nothing is saved there.
import { getData, setData } from '../storage/local-storage.ts';
import type { StoredValue } from '../storage/registry.ts';
import { log } from '../log.ts';

export type PreferenceKey = 'theme' | 'locale';

/** The saved value, or undefined when nothing (or something unreadable) is saved. */
export function savedPreference<K extends PreferenceKey>(key: K): StoredValue<K> | undefined {
  if (typeof localStorage === 'undefined') return undefined;
  try {
    return getData(key);
  } catch (e) {
    log.warn(`Ignoring the unreadable saved ${key}`, e);
    return undefined;
  }
}

/** Saves a preference; a failure (storage full or blocked) is logged, as the choice still applies. */
export function savePreference<K extends PreferenceKey>(key: K, value: StoredValue<K>): void {
  try {
    setData(key, value);
  } catch (e) {
    log.warn(`Could not save the ${key} preference`, e);
  }
}
