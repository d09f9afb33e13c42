// The "session expired" dialog (docs/protocol.md#logout): the server no longer accepts this browser's
// token (revoked from another device, expired, or a password change elsewhere signed it out), so
// nothing more can be done here but logging out. The dialog can only be left through that button.
// Shown once per page load, however many requests fail.
import type { TFunction } from 'i18next';

import type { DialogControl } from '@ente/shared/dialog/DialogProvider.tsx';
import { logoutAndReload } from '@ente/shared/logout-and-reload.ts';

let shown = false;

export function showSessionExpiredDialog(
  { showDialog, onGenericError }: DialogControl,
  t: TFunction<'accounts'>,
): void {
  if (shown) return;
  shown = true;
  showDialog({
    title: t('session_expired_title'),
    content: t('session_expired_body'),
    nonClosable: true,
    proceed: {
      text: t('session_expired_logout'),
      variant: 'primary',
      action: () => logoutAndReload(onGenericError),
    },
  });
}

/** For tests: lets the next failure show the dialog again. */
export function resetSessionExpiredDialog(): void {
  shown = false;
}
