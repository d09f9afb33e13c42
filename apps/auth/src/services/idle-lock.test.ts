// The idle lock's clock (fake timers, which also drive Date.now), its setting in local storage, and
// what locking leaves behind in session storage.
import { cryptoWorker } from '@ente/crypto/client.ts';
import {
  savedEncryptionKeyStash,
  savedInflightPasskeySessionID,
  savedKeyEncryptionKeyStash,
  saveEncryptionKeyStash,
  saveInflightPasskeySessionID,
  saveKeyEncryptionKeyStash,
} from '@ente/shared/storage/account-storage.ts';
import { resetInMemoryState } from '@ente/shared/storage/in-memory.ts';

import {
  defaultIdleLockMinutes,
  lockThisTab,
  savedIdleLockMinutes,
  saveIdleLockMinutes,
  subscribeIdleLockMinutes,
  watchIdle,
} from './idle-lock.ts';
import type * as Otp from './otp.ts';
import { forgetSecrets } from './otp.ts';

jest.mock('./otp.ts', () => {
  const actual = jest.requireActual<typeof Otp>('./otp.ts');
  return { ...actual, forgetSecrets: jest.fn(actual.forgetSecrets) };
});

const minute = 60_000;

describe('watchIdle', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  test('locks once after N minutes without activity', () => {
    const onIdle = jest.fn();
    const stop = watchIdle(15, onIdle);
    jest.advanceTimersByTime(15 * minute - 1);
    expect(onIdle).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(60 * minute);
    window.dispatchEvent(new Event('keydown'));
    expect(onIdle).toHaveBeenCalledTimes(1);
    stop();
  });

  test.each(['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'])('%s postpones the lock', (type) => {
    const onIdle = jest.fn();
    const stop = watchIdle(5, onIdle);
    jest.advanceTimersByTime(4 * minute);
    window.dispatchEvent(new Event(type));
    jest.advanceTimersByTime(4 * minute);
    expect(onIdle).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1 * minute);
    expect(onIdle).toHaveBeenCalledTimes(1);
    stop();
  });

  test('events on elements count (they bubble to the window)', () => {
    const onIdle = jest.fn();
    const stop = watchIdle(1, onIdle);
    const button = document.createElement('button');
    document.body.append(button);
    jest.advanceTimersByTime(50_000);
    button.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    jest.advanceTimersByTime(50_000);
    expect(onIdle).not.toHaveBeenCalled();
    jest.advanceTimersByTime(10_000);
    expect(onIdle).toHaveBeenCalled();
    button.remove();
    stop();
  });

  test('the tab coming back into view counts as activity', () => {
    const onIdle = jest.fn();
    const stop = watchIdle(1, onIdle);
    jest.advanceTimersByTime(50_000);
    document.dispatchEvent(new Event('visibilitychange'));
    jest.advanceTimersByTime(50_000);
    expect(onIdle).not.toHaveBeenCalled();
    jest.advanceTimersByTime(10_000);
    expect(onIdle).toHaveBeenCalled();
    stop();
  });

  test('a computer that slept past the limit locks on the first event, which does not count as activity', () => {
    let clock = 0;
    const onIdle = jest.fn();
    const stop = watchIdle(15, onIdle, () => clock);
    // The timer was suspended: the wall clock moved, the timer did not fire.
    clock = 3 * 60 * minute;
    window.dispatchEvent(new Event('pointermove'));
    expect(onIdle).toHaveBeenCalledTimes(1);
    stop();
  });

  test('a late timer looks at the time of the last activity, not at when it was set', () => {
    let clock = 0;
    const onIdle = jest.fn();
    const stop = watchIdle(10, onIdle, () => clock);
    clock = 9 * minute;
    window.dispatchEvent(new Event('keydown'));
    clock = 10 * minute;
    jest.advanceTimersByTime(10 * minute); // the first timer fires: 1 minute idle only
    expect(onIdle).not.toHaveBeenCalled();
    clock = 19 * minute;
    jest.advanceTimersByTime(9 * minute); // the second timer, set for the rest
    expect(onIdle).toHaveBeenCalledTimes(1);
    stop();
  });

  test('one timer at a time, however many events', () => {
    const stop = watchIdle(5, jest.fn());
    for (let i = 0; i < 1000; i++) window.dispatchEvent(new Event('pointermove'));
    expect(jest.getTimerCount()).toBe(1);
    stop();
    expect(jest.getTimerCount()).toBe(0);
  });

  test('0 never locks and sets no timer', () => {
    const onIdle = jest.fn();
    const stop = watchIdle(0, onIdle);
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(24 * 60 * minute);
    window.dispatchEvent(new Event('keydown'));
    expect(onIdle).not.toHaveBeenCalled();
    stop();
  });

  test('stopping ends the watch', () => {
    const onIdle = jest.fn();
    const stop = watchIdle(1, onIdle);
    stop();
    jest.advanceTimersByTime(10 * minute);
    window.dispatchEvent(new Event('keydown'));
    expect(onIdle).not.toHaveBeenCalled();
  });
});

describe('the setting', () => {
  beforeEach(() => localStorage.clear());

  test('defaults to 15 minutes', () => {
    expect(defaultIdleLockMinutes).toBe(15);
    expect(savedIdleLockMinutes()).toBe(15);
  });

  test('persists in local storage under authIdleLock', () => {
    saveIdleLockMinutes(5);
    expect(JSON.parse(localStorage.getItem('authIdleLock') ?? 'null')).toEqual({ minutes: 5 });
    expect(savedIdleLockMinutes()).toBe(5);
    saveIdleLockMinutes(0);
    expect(savedIdleLockMinutes()).toBe(0);
  });

  test('an unreadable or absurd stored value reads as the default', () => {
    for (const raw of ['{"minutes":-1}', '{"minutes":1.5}', '{"minutes":100000}', '"5"', 'not json']) {
      localStorage.setItem('authIdleLock', raw);
      expect(savedIdleLockMinutes()).toBe(15);
    }
  });

  test('watchers hear changes made in this tab and in others', () => {
    const listener = jest.fn();
    const unsubscribe = subscribeIdleLockMinutes(listener);
    saveIdleLockMinutes(30);
    expect(listener).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new StorageEvent('storage', { key: 'authIdleLock' }));
    expect(listener).toHaveBeenCalledTimes(2);
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme' }));
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    saveIdleLockMinutes(60);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe('lockThisTab', () => {
  const stash = { encryptedData: 'ZGF0YQ==', key: 'a2V5', nonce: 'bm9uY2U=' };

  beforeEach(() => {
    sessionStorage.clear();
    saveEncryptionKeyStash(stash);
    saveKeyEncryptionKeyStash(stash);
    saveInflightPasskeySessionID('passkey-session');
  });

  test('closes the vault, removes the session keys and ends the crypto worker', async () => {
    const before = cryptoWorker();
    await before;
    const vault = { close: jest.fn() };
    lockThisTab(vault);
    expect(vault.close).toHaveBeenCalledTimes(1);
    expect(savedEncryptionKeyStash()).toBeUndefined();
    expect(savedKeyEncryptionKeyStash()).toBeUndefined();
    expect(sessionStorage.getItem('encryptionKey')).toBeNull();
    expect(sessionStorage.getItem('keyEncryptionKey')).toBeNull();
    // Not a key: what this tab waits for from the passkey flow stays.
    expect(savedInflightPasskeySessionID()).toBe('passkey-session');
    // A new crypto API object: the old one (and what it held) is gone.
    expect(cryptoWorker()).not.toBe(before);
  });

  test('logout (the in-memory resets) forgets what a lock forgets: the decoded secrets and the crypto worker', async () => {
    jest.mocked(forgetSecrets).mockClear();
    const before = cryptoWorker();
    await before;
    await resetInMemoryState();
    expect(forgetSecrets).toHaveBeenCalledTimes(1);
    expect(cryptoWorker()).not.toBe(before);
  });

  test('removes the keys even when closing the vault fails', () => {
    lockThisTab({
      close() {
        throw new Error('boom');
      },
    });
    expect(sessionStorage.getItem('encryptionKey')).toBeNull();
    expect(sessionStorage.getItem('keyEncryptionKey')).toBeNull();
  });
});
