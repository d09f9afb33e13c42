// Logout from the settings and from the "session expired" dialog, as the app menu does it
// (docs/product.md#app-shell): the loading bar runs, logout() ends the session and forgets everything
// (docs/protocol.md#logout), then '/' loads afresh. If the server could not be told, the generic
// failure dialog says so first and closing it loads '/'; the user is signed out here either way.
import { reloadAt } from '@ente/shared/app/navigation.ts';
import type { DialogControl } from '@ente/shared/dialog/DialogProvider.tsx';
import { finishLoadingBar, startLoadingBar } from '@ente/shared/loading-bar.ts';

export async function logoutAndReload(onGenericError: DialogControl['onGenericError']): Promise<void> {
  startLoadingBar();
  try {
    const { logout } = await import('@ente/shared/logout.ts');
    await logout();
  } catch (e) {
    finishLoadingBar();
    onGenericError(e, { message: 'Logout failed', onClose: () => reloadAt('/') });
    return;
  }
  reloadAt('/');
}
