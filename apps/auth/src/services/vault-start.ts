// Opening the vault before the code of its page has arrived. pages/auth.tsx imports this module as soon as
// its own runs in an unlocked tab (import(), beside the page's chunk) and calls `startVault()`, so what the
// first frame of codes waits for starts at once and in parallel, instead of one after the other: the crypto
// worker (libsodium), the read of the cached codes, the user id and this tab's masterKey (vault/identity.ts),
// the `codes` translations, and the code of the vault itself; each overlaps with the download of the
// VaultPage chunk. VaultPage then takes what was started with `takeVault()`.
import { cryptoWorker } from '@ente/crypto/client.ts';
import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { readAuthenticatorCache } from '../vault/cache-read.ts';
import { readIdentity } from '../vault/identity.ts';
import { markVaultStage } from '../vault/marks.ts';
import type { EarlyCache, Vault } from '../vault/vault.ts';

let started: Promise<Vault> | undefined;

/** Starts opening the vault and loading its translations (once, until taken). */
export function startVault(): void {
  if (started) return;
  markVaultStage('start');
  // Started here, the worker is the one the vault then uses (cryptoWorker() keeps one per tab).
  cryptoWorker().then(
    () => markVaultStage('worker'),
    () => undefined,
  );
  // The user's id from local storage, at once: the vault checks it against the authoritative copy in kv and
  // reads the cache again if they differ, as it does when this early read fails.
  const userID = savedUser()?.id;
  const early: Promise<EarlyCache | undefined> =
    userID === undefined
      ? Promise.resolve(undefined)
      : readAuthenticatorCache(userID).then(
          (cache) => {
            markVaultStage('cache-read');
            return { userID, cache };
          },
          () => undefined,
        );
  // The user id in kv and the masterKey: each a read the vault would otherwise begin only once its code is here.
  const identity = readIdentity();
  identity.catch(() => undefined);
  const opening = Promise.all([
    loadNamespace('codes').then(() => markVaultStage('i18n')),
    import('../vault/vault.ts').then((m) => {
      markVaultStage('module');
      return m.openVault({ early, identity });
    }),
  ]).then(([, vault]) => {
    markVaultStage('opened');
    return vault;
  });
  // Taken or not, a failure must not be an unhandled rejection; VaultPage reports what it takes.
  opening.catch(() => undefined);
  started = opening;
}

/** The vault `startVault` started, or one started now; each call takes its own. */
export function takeVault(): Promise<Vault> {
  startVault();
  const opening = started as Promise<Vault>;
  started = undefined;
  return opening;
}
