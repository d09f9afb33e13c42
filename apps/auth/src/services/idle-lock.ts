// The idle lock of the auth app (docs/product.md#the-codes): after a chosen time without activity in
// this tab, the tab forgets its keys and asks for the password again. The time is a device setting in
// local storage (`authIdleLock`, kept on logout). See: [Note: Idle lock]
import { resetCryptoWorker } from '@ente/crypto/client.ts';
import { log } from '@ente/shared/log.ts';
import { removeEncryptionKeyStash, removeKeyEncryptionKeyStash } from '@ente/shared/storage/account-storage.ts';
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';
import { readAppLocal, writeAppLocal } from '@ente/shared/storage/local-storage.ts';

import { authIdleLockKey } from '../storage.ts';
import { forgetSecrets } from './otp.ts';

// [Note: Idle lock]
// Activity is what a person at the keyboard does in this tab: pointer, keys, wheel, touch, and the tab
// coming back into view. Each event only stores the time; one timer, set for when the limit would be
// reached, looks at that time when it fires and either locks or sets itself for the rest. Time is
// measured on the wall clock, so a computer that slept past the limit locks on the first event after
// waking (which is checked before it counts as activity), not minutes later when a suspended timer
// would have fired.
//
// The lock is per tab, like the keys it removes (session storage belongs to one tab). Locking one tab
// does not lock the others and activity in one does not keep another unlocked: each tab that sits
// unused for the chosen time locks by itself, and a tab in use is never locked because of another.
//
// Locking closes the vault (keys and codes leave memory), removes the masterKey and KEK stashes from
// session storage, ends the crypto worker, and then loads /credentials afresh. That page sees a
// signed-in user whose tab holds no key and asks for the password; one derivation with the local
// (interactive) key attributes opens the masterKey again and leads back to /auth.

/** The choices the setting offers, in minutes; 0 is "never". */
export const idleLockChoices = [1, 5, 15, 30, 60, 0] as const;

export const defaultIdleLockMinutes = 15;

/** The longest limit a stored value may ask for (a day); larger or invalid values read as the default. */
const maxIdleLockMinutes = 24 * 60;

/** Minutes without activity before this tab locks (0: never), as saved on this device. */
export function savedIdleLockMinutes(): number {
  const minutes = readAppLocal(authIdleLockKey)?.minutes;
  return minutes !== undefined && minutes >= 0 && minutes <= maxIdleLockMinutes ? minutes : defaultIdleLockMinutes;
}

/** Saves the setting and tells the watchers of this tab (other tabs hear it through the storage event). */
export function saveIdleLockMinutes(minutes: number): void {
  try {
    writeAppLocal(authIdleLockKey, { minutes });
  } catch (e) {
    log.warn('Could not save the idle lock setting', e);
  }
  for (const listener of settingListeners) listener();
}

const settingListeners = new Set<() => void>();

/** Calls `listener` when the setting changes, in this tab or another (for useSyncExternalStore). */
export function subscribeIdleLockMinutes(listener: () => void): () => void {
  settingListeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === authIdleLockKey.name || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    settingListeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The events that count as activity. */
const activityEvents = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Calls `onIdle` once, when `minutes` pass without activity in this tab; 0 never does. Returns the
 * function that stops watching. `now` is the wall clock (tests pass a fake one).
 */
export function watchIdle(minutes: number, onIdle: () => void, now: () => number = Date.now): () => void {
  if (minutes <= 0) return () => undefined;
  const limitMs = minutes * 60_000;
  let lastActivity = now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;

  const lock = () => {
    if (done) return;
    stop();
    onIdle();
  };
  /** Locks if the limit has passed since the last activity; says whether it did. */
  const lockIfIdle = () => {
    if (now() - lastActivity < limitMs) return false;
    lock();
    return true;
  };
  const check = () => {
    timer = undefined;
    if (!lockIfIdle()) timer = setTimeout(check, limitMs - (now() - lastActivity));
  };
  const onActivity = () => {
    if (!lockIfIdle()) lastActivity = now();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') onActivity();
  };
  const options = { capture: true, passive: true };

  function stop() {
    done = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    for (const type of activityEvents) window.removeEventListener(type, onActivity, options);
    document.removeEventListener('visibilitychange', onVisibility);
  }

  for (const type of activityEvents) window.addEventListener(type, onActivity, options);
  document.addEventListener('visibilitychange', onVisibility);
  timer = setTimeout(check, limitMs);
  return stop;
}

/**
 * Locks this tab: closes the vault (which empties its snapshot), drops the decoded secrets kept for
 * speed, removes the session keys (masterKey and KEK stashes) and ends the crypto worker. The caller then
 * leaves for the unlock screen (`unlockRoute`) for good (reloadAt). Each step runs even if an earlier one
 * fails.
 */
export function lockThisTab(vault: { close(): void }): void {
  try {
    vault.close();
  } catch (e) {
    log.error('Could not close the vault while locking', e);
  }
  removeEncryptionKeyStash();
  removeKeyEncryptionKeyStash();
  forgetDecrypted();
}

/**
 * What a lock and a logout forget besides the vault and the keys: the decoded secrets kept for speed and
 * the crypto worker, whose heap may still hold texts it decrypted.
 */
function forgetDecrypted(): void {
  forgetSecrets();
  resetCryptoWorker();
}

// Logout forgets the same (the vault itself closes through its own reset, vault.ts).
registerInMemoryReset('auth-decrypted', forgetDecrypted);

/** Where a locked tab goes: the password step, which unlocks it and returns to /auth. */
export const unlockRoute = '/credentials';
