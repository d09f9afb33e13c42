import { act, renderHook } from '@testing-library/react';

import type { Vault, VaultSnapshot } from '../vault/vault.ts';
import { useVaultSnapshot } from './use-vault.ts';

/** A vault whose snapshot the test replaces. */
function fakeVault() {
  const listeners = new Set<() => void>();
  let current: VaultSnapshot = { status: 'loading', items: [], syncing: true, conflicts: [], timeOffsetMs: 0 };
  const vault = {
    snapshot: () => current,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  } as unknown as Vault;
  const change = (next: Partial<VaultSnapshot>) => {
    current = { ...current, ...next };
    for (const listener of listeners) listener();
  };
  return { vault, change, listeners };
}

test('follows the snapshot and unsubscribes on unmount', () => {
  const { vault, change, listeners } = fakeVault();
  const { result, unmount } = renderHook(() => useVaultSnapshot(vault));
  expect(result.current.status).toBe('loading');
  act(() => change({ status: 'ready', syncing: false, timeOffsetMs: 1200 }));
  expect(result.current).toMatchObject({ status: 'ready', syncing: false, timeOffsetMs: 1200 });
  expect(listeners.size).toBe(1);
  unmount();
  expect(listeners.size).toBe(0);
});
