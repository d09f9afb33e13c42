// The account parts each app hands to createApp (@ente/shared/app/account-ui.tsx): the settings
// drawer and the session watcher, each behind its own dynamic import, so neither is in any page's
// first load.
import type { AccountUI } from '@ente/shared/app/account-ui.tsx';

export const accountUI: AccountUI = {
  loadSettings: () => import('./SettingsDrawer.tsx').then((module) => module.SettingsDrawer),
  loadSessionWatcher: () => import('./SessionWatcher.tsx').then((module) => module.SessionWatcher),
};
