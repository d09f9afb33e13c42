// Locks the tab after the chosen time without activity (services/idle-lock.ts, see [Note: Idle lock]).
// VaultPage renders it once while the vault is open. On lock it covers the page at once, so no code
// stays in view, forgets the keys, and loads the password step afresh in place of this page.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';

import { reloadAt } from '@ente/shared/app/navigation.ts';

import {
  lockThisTab,
  savedIdleLockMinutes,
  subscribeIdleLockMinutes,
  unlockRoute,
  watchIdle,
} from '../../services/idle-lock.ts';
import type { Vault } from '../../vault/vault.ts';

export function IdleLock({ vault }: { vault: Vault }): React.ReactNode {
  const { t } = useTranslation('codes');
  const minutes = useIdleLockMinutes();
  const [locked, setLocked] = useState(false);

  useEffect(
    () =>
      watchIdle(minutes, () => {
        // Rendered before the page leaves: the cover is up and, the vault being closed, VaultPage has
        // unmounted the codes and all their state.
        flushSync(() => {
          lockThisTab(vault);
          setLocked(true);
        });
        reloadAt(unlockRoute);
      }),
    [minutes, vault],
  );

  if (!locked) return null;
  return (
    <Box
      role="status"
      sx={{
        position: 'fixed',
        inset: 0,
        // Above dialogs, menus and snackbars, which may show a code too.
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
        p: 3,
      }}
    >
      <Typography variant="h6" component="p">
        {t('lock.locked')}
      </Typography>
    </Box>
  );
}

/** The saved setting, following changes made in this tab or another. */
export function useIdleLockMinutes(): number {
  // Never locks in the prerender, which has no storage.
  return useSyncExternalStore(subscribeIdleLockMinutes, savedIdleLockMinutes, () => 0);
}
