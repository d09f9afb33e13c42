// The photos app's library pages (/gallery, /deduplicate) are the first load of every visit, signed-out ones
// included, so they decide from storage alone where the visitor belongs (the rules of the auth app's
// pages/auth.tsx: signed out → /login, no keys yet → /generate, a locked tab → /credentials) and only a
// signed-in, unlocked visitor loads the page's real module, with import(). The first-load budget (200 KiB gzip)
// leaves no room for the library's views on a route the sign-in code already weighs on.
import { useRouter } from 'next/router';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';

import { savedEncryptionKeyStash, savedKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import type { LazyModule } from './lazy-module.ts';

export { lazyModule, type LazyModule } from './lazy-module.ts';

/** Where the visitor goes instead of a library page; undefined when this tab can show it. */
export function arrivalRedirect(): string | undefined {
  if (!isLoggedIn()) return '/login';
  if (!savedKeyAttributes()) return '/generate';
  if (!savedEncryptionKeyStash()) return '/credentials';
  return undefined;
}

/** The prerender (and the hydration that must match it) knows nothing of the visitor yet. */
const undecided = 'undecided';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}

/**
 * The page's module once this tab may show it (redirecting otherwise; a logout in another tab redirects this
 * one too, through the storage event); undefined meanwhile. A failed load throws, for the shell's error boundary.
 */
export function useSignedInModule<M>(page: LazyModule<M>): M | undefined {
  const router = useRouter();
  const target = useSyncExternalStore(subscribe, arrivalRedirect, () => undecided);
  const [state, setState] = useState<{ module?: M; error?: Error }>(() => ({ module: page.loaded() }));
  // One redirect per page: the router object changes while it runs.
  const left = useRef(false);
  useEffect(() => {
    if (target === undecided) return;
    if (target !== undefined) {
      if (!left.current) void router.replace(target);
      left.current = true;
      return;
    }
    if (state.module) return;
    let live = true;
    page.load().then(
      (module) => live && setState({ module }),
      (error: unknown) => live && setState({ error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [target, router, state.module, page]);
  if (state.error) throw state.error;
  return target === undefined ? state.module : undefined;
}
