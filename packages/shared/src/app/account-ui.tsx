// The account parts of the shell that live in packages/accounts, which this package cannot import: the
// settings (opened from the app menu) and the session watcher (the "session expired" dialog). Each
// app hands their loaders to createApp (docs/product.md#app-shell); both load on demand only, never
// in a page's first load: the settings when the menu item is chosen, the watcher once someone is
// signed in.
import { createContext, useContext, useEffect, useState, type ComponentType } from 'react';

import { log } from '../log.ts';
import { useLoggedIn } from './use-logged-in.ts';

export interface SettingsProps {
  open: boolean;
  onClose: () => void;
}

export interface AccountUI {
  /** Loads the settings, opened from the app menu while signed in. */
  loadSettings: () => Promise<ComponentType<SettingsProps>>;
  /** Loads the component that watches the session while signed in (it renders nothing of its own). */
  loadSessionWatcher: () => Promise<ComponentType>;
}

export const AccountUIContext = createContext<AccountUI | undefined>(undefined);

/** The account parts the app was created with, if any. */
export function useAccountUI(): AccountUI | undefined {
  return useContext(AccountUIContext);
}

/** Renders the app's session watcher while someone is signed in, loading it then. */
export function SignedInSessionWatcher() {
  const accountUI = useAccountUI();
  const loggedIn = useLoggedIn();
  const [Watcher, setWatcher] = useState<ComponentType>();

  useEffect(() => {
    if (!accountUI || !loggedIn || Watcher) return;
    accountUI.loadSessionWatcher().then(
      (component) => setWatcher(() => component),
      (e: unknown) => log.warn('Could not load the session watcher', e),
    );
  }, [accountUI, loggedIn, Watcher]);

  return Watcher && loggedIn ? <Watcher /> : null;
}
