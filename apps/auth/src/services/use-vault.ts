// The vault's state in React: `useVaultSnapshot(vault)` re-renders when the vault changes (its snapshot
// is a stable object between changes, as useSyncExternalStore requires).
import { useCallback, useSyncExternalStore } from 'react';

import type { Vault, VaultSnapshot } from '../vault/vault.ts';

export function useVaultSnapshot(vault: Vault): VaultSnapshot {
  const subscribe = useCallback((listener: () => void) => vault.subscribe(listener), [vault]);
  const snapshot = useCallback(() => vault.snapshot(), [vault]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
