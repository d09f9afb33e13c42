// A value read from browser storage, for rendering: `fallback` in the static prerender and the first
// render (so hydration matches), the stored value right after, and again whenever another tab changes
// storage. `read` must return a primitive (a new object each time would never settle).
import { useSyncExternalStore } from 'react';

import { savedUser } from '@ente/shared/storage/local-storage.ts';

export function useStored<T extends string | number | boolean | undefined>(read: () => T, fallback: T): T {
  return useSyncExternalStore(subscribe, read, () => fallback);
}

/** The e-mail address of the sign-in in progress (the stored user record). */
export function useSavedEmail(): string | undefined {
  return useStored(() => savedUser()?.email, undefined);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}
