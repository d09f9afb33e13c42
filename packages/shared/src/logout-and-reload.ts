// Logout as a person asks for it (the app menu, the settings, the "session expired" dialog, "use
// another account"; docs/product.md#app-shell): the loading bar runs, logout() ends the session and
// forgets everything (docs/protocol.md#logout), then `target` loads afresh, so nothing of the signed-in
// app stays in memory. logout() rejects only for a remote failure, after the local clean-up ran: the
// user is signed out here either way, so the generic failure dialog says the server could not be told
// and closing it loads `target`.
import { reloadAt } from './app/navigation.ts';
import type { DialogControl } from './dialog/DialogProvider.tsx';
import { finishLoadingBar, startLoadingBar } from './loading-bar.ts';

export async function logoutAndReload(
  onGenericError: DialogControl['onGenericError'],
  target: '/' | '/login' = '/',
): Promise<void> {
  startLoadingBar();
  try {
    const { logout } = await import('./logout.ts');
    await logout();
  } catch (e) {
    finishLoadingBar();
    onGenericError(e, { message: 'Logout failed', onClose: () => reloadAt(target) });
    return;
  }
  reloadAt(target);
}
