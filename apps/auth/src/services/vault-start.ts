// Opening the vault before the code of its page has arrived. pages/auth.tsx calls `startVault()` as soon
// as its module runs in an unlocked tab, so reading the cache, starting the crypto worker (libsodium)
// and fetching the `codes` translations overlap with the download of the VaultPage chunk instead of
// following it; VaultPage then takes what was started with `takeVault()`.
import { loadNamespace } from '@ente/shared/i18n/i18n.ts';

import type { Vault } from './vault.ts';

let started: Promise<Vault> | undefined;

/** Starts opening the vault and loading its translations (once, until taken). */
export function startVault(): void {
  if (started) return;
  const opening = Promise.all([loadNamespace('codes'), import('./vault.ts').then((m) => m.openVault())]).then(
    ([, vault]) => vault,
  );
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
