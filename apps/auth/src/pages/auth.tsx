// /auth, the authenticator's home (docs/product.md#the-codes). This module is the first load of every
// visit, signed out ones included, so it decides from storage alone where the visitor belongs and
// imports nothing of the vault: a signed-out visitor goes to /login, a signed-in one whose account has
// no keys yet to /generate, one whose tab is locked to /credentials (the rules of signedInRedirect in
// @ente/accounts/services/session.ts, read here through the storage accessors, as that module brings
// the sign-in flows with it). Only a signed-in, unlocked visitor loads the codes, with import().
import { useRouter } from 'next/router';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { savedEncryptionKeyStash, savedKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import type VaultPageComponent from '../components/VaultPage.tsx';
import { markVaultStage } from '../vault/marks.ts';

// The vault page's module, held here once it has arrived. Not React.lazy: a lazy component suspends on its
// first render even when its chunk is already here, and React then holds back the content that replaces a
// Suspense fallback for up to 300 ms, which alone would exceed the time a reload may take to show the codes.
interface VaultPageModule {
  default: typeof VaultPageComponent;
}
let vaultPageModule: VaultPageModule | undefined;
let vaultPageLoading: Promise<VaultPageModule> | undefined;

function loadVaultPage(): Promise<VaultPageModule> {
  vaultPageLoading ??= import('../components/VaultPage.tsx').then(
    (module) => {
      markVaultStage('page-module');
      return (vaultPageModule = module);
    },
    (error: unknown) => {
      vaultPageLoading = undefined; // tried again on the next visit of the page
      throw error;
    },
  );
  return vaultPageLoading;
}

// In an unlocked tab, the page's chunk and the vault (cache, crypto worker, translations) start loading
// as this module runs, before React renders anything, and in parallel. vault-start comes with import()
// too: with the crypto client and the cache's reader it is 2–3 KiB gzip that a signed-out visit (the
// first load the budget measures) never runs; it is a small chunk, fetched beside the page's. Should it
// fail to arrive, VaultPage's takeVault() starts the vault itself.
if (typeof window !== 'undefined' && arrivalRedirect() === undefined) {
  loadVaultPage().catch(() => undefined);
  import('../services/vault-start.ts').then(
    (module) => module.startVault(),
    () => undefined,
  );
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

  const VaultPage = useVaultPage(target === undefined);
  if (target !== undefined || !VaultPage) return <LoadingOverlay />;
  // eslint-disable-next-line react-hooks/static-components -- a module's default export: one component for the page's life
  return <VaultPage />;
}

/** The vault page's component once its module is here (loading it when `wanted`); a failed load throws. */
function useVaultPage(wanted: boolean): VaultPageModule['default'] | undefined {
  const [loaded, setLoaded] = useState<{ module?: VaultPageModule; error?: Error }>(() => ({
    module: vaultPageModule,
  }));
  useEffect(() => {
    if (!wanted || loaded.module) return;
    let live = true;
    loadVaultPage().then(
      (module) => live && setLoaded({ module }),
      (error: unknown) => live && setLoaded({ error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [wanted, loaded.module]);
  // As a lazy component's failed chunk did: the shell's error boundary reports it.
  if (loaded.error) throw loaded.error;
  return loaded.module?.default;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}
