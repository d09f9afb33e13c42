// Whether a user is signed in, for rendering. The static prerender and the first client render say
// no (so hydration matches); the stored user record decides right after, and a sign-in or logout in
// another tab is followed through the storage event.
import { useSyncExternalStore } from 'react';

import { isLoggedIn } from '../storage/user.ts';

export function useLoggedIn(): boolean {
  return useSyncExternalStore(subscribe, isLoggedIn, () => false);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}
