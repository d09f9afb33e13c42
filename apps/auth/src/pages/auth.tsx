// /auth, the authenticator's home (docs/product.md#the-codes). This module is the first load of every
// visit, signed out ones included, so it decides from storage alone where the visitor belongs and
// imports nothing of the vault: a signed-out visitor goes to /login, a signed-in one whose account has
// no keys yet to /generate, one whose tab is locked to /credentials (the rules of signedInRedirect in
// @ente/accounts/services/session.ts, read here through the storage accessors, as that module brings
// the sign-in flows with it). Only a signed-in, unlocked visitor loads the codes, with import().
import { useRouter } from 'next/router';
import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from 'react';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { savedEncryptionKeyStash, savedKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import { startVault } from '../services/vault-start.ts';

const loadVaultPage = () => import('../components/VaultPage.tsx');
const VaultPage = lazy(loadVaultPage);

// In an unlocked tab, the page's chunk and the vault (cache, crypto worker, translations) start loading
// as this module runs, before React renders anything, and in parallel.
if (typeof window !== 'undefined' && arrivalRedirect() === undefined) {
  loadVaultPage().catch(() => undefined);
  startVault();
}

/** Where the visitor goes instead of the codes; undefined when this tab can show them. */
function arrivalRedirect(): string | undefined {
  if (!isLoggedIn()) return '/login';
  if (!savedKeyAttributes()) return '/generate';
  if (!savedEncryptionKeyStash()) return '/credentials';
  return undefined;
}

/** The prerender (and the hydration that must match it) knows nothing of the visitor yet. */
const undecided = 'undecided';

export default function Page() {
  const router = useRouter();
  // Followed through the storage event: a logout in another tab sends this one to /login too.
  const target = useSyncExternalStore(subscribe, arrivalRedirect, () => undecided);
  // The router object changes while a redirect runs; redirect once.
  const redirected = useRef(false);
  useEffect(() => {
    if (target === undefined || target === undecided || redirected.current) return;
    redirected.current = true;
    void router.replace(target);
  }, [target, router]);

  if (target !== undefined) return <LoadingOverlay />;
  return (
    <Suspense fallback={<LoadingOverlay />}>
      <VaultPage />
    </Suspense>
  );
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}
