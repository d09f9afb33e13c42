// The keys unlocked for this tab (docs/protocol.md#session-storage): the masterKey under
// `encryptionKey` and, across the second-factor step of an SRP login, the KEK under `keyEncryptionKey`,
// each wrapped by the crypto worker (stashKey / unstashKey) so that the raw key is not in plain view.
// The records themselves are read and written through @ente/shared/storage/account-storage.ts.
import { cryptoWorker } from '@ente/crypto/client.ts';
import { log } from '@ente/shared/log.ts';
import {
  removeKeyEncryptionKeyStash,
  savedEncryptionKeyStash,
  savedKeyEncryptionKeyStash,
  saveEncryptionKeyStash,
  saveKeyEncryptionKeyStash,
} from '@ente/shared/storage/account-storage.ts';

/** The masterKey (b64) unlocked in this tab, or undefined when this tab is locked. */
export async function masterKeyOfThisTab(): Promise<string | undefined> {
  const stash = savedEncryptionKeyStash();
  if (!stash) return undefined;
  try {
    return await (await cryptoWorker()).unstashKey(stash);
  } catch (e) {
    log.error('Could not open the masterKey of this tab', e);
    return undefined;
  }
}

/** Whether this tab holds the masterKey (synchronous, for routing). */
export function isUnlockedInThisTab(): boolean {
  return savedEncryptionKeyStash() !== undefined;
}

/** Keeps the masterKey for this tab. */
export async function saveMasterKeyOfThisTab(masterKey: string): Promise<void> {
  saveEncryptionKeyStash(await (await cryptoWorker()).stashKey(masterKey));
}

/** Keeps the KEK across the second-factor step, so the password is not asked again. */
export async function stashKEK(kek: string): Promise<void> {
  saveKeyEncryptionKeyStash(await (await cryptoWorker()).stashKey(kek));
}

/** Whether a KEK waits from before the second factor. */
export function hasStashedKEK(): boolean {
  return savedKeyEncryptionKeyStash() !== undefined;
}

/** The KEK kept across the second factor, removed as it is read; undefined when there is none. */
export async function takeStashedKEK(): Promise<string | undefined> {
  const stash = savedKeyEncryptionKeyStash();
  if (!stash) return undefined;
  removeKeyEncryptionKeyStash();
  try {
    return await (await cryptoWorker()).unstashKey(stash);
  } catch (e) {
    log.error('Could not open the stashed KEK', e);
    return undefined;
  }
}
