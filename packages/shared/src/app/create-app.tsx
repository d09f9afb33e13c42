// Builds the Next `_app` of every app; each app's _app.tsx is `export default createApp({ name, … })`.
// An app hands the shell what is its own: `storage`, what it keeps in the browser beyond the shell's
// (logout clears the union; storage/registry.ts), and `locales`, its own translation namespaces
// (i18n/i18n.ts).
// The shell, outermost first (docs/product.md#app-shell): theme → i18n ready (the loading overlay
// until then) → dialog provider → top loading bar → route-change overlay → offline banner → page.
// `accountUI` (from packages/accounts, through the app) adds the settings to the app menu and the
// session watcher while signed in; see account-ui.tsx.
import './zod-without-eval.ts';
import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import '@fontsource/inter/700.css';

import type { AppProps } from 'next/app';
import Head from 'next/head';
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';

import { setAppName, type AppName } from '../app-name.ts';
import { LoadingOverlay } from '../components/LoadingOverlay.tsx';
import { OfflineBanner } from '../components/OfflineBanner.tsx';
import { DialogProvider } from '../dialog/DialogProvider.tsx';
import { declareAppLocales, i18n, isI18nReady, setupI18n, subscribeI18nReady, type AppLocales } from '../i18n/i18n.ts';
import { declareAppStorage, type AppStorage } from '../storage/registry.ts';
import { AccountUIContext, SignedInSessionWatcher, type AccountUI } from './account-ui.tsx';
import { AppThemeProvider } from './AppThemeProvider.tsx';
import { TopLoadingBar } from './TopLoadingBar.tsx';
import { useRouteChangeToOtherPath } from './use-route-change.ts';

export function createApp({
  name,
  accountUI,
  storage = {},
  locales = {},
}: {
  name: AppName;
  accountUI?: AccountUI;
  storage?: AppStorage;
  locales?: AppLocales;
}) {
  // At module load of the app's _app, before any page code talks to the server or logs out.
  setAppName(name);
  declareAppStorage(storage);
  declareAppLocales(locales);

  return function App({ Component, pageProps }: AppProps) {
    return (
      <AppThemeProvider>
        <I18nextProvider i18n={i18n}>
          <AppTitle name={name} />
          <WhenI18nReady>
            <DialogProvider>
              <AccountUIContext value={accountUI}>
                <TopLoadingBar />
                <RouteChangeOverlay />
                <OfflineBanner />
                <Component {...pageProps} />
                <SignedInSessionWatcher />
              </AccountUIContext>
            </DialogProvider>
          </WhenI18nReady>
        </I18nextProvider>
      </AppThemeProvider>
    );
  };
}

function AppTitle({ name }: { name: AppName }) {
  const { t } = useTranslation('common');
  return (
    <Head>
      <title>{t(`title_${name}`)}</title>
    </Head>
  );
}

/** The loading overlay until the visitor's locale is in place (the app's initial setup), then the app. */
function WhenI18nReady({ children }: { children: ReactNode }) {
  // Not ready in the prerender and during hydration, so the first client render matches the HTML.
  const ready = useSyncExternalStore(subscribeI18nReady, isI18nReady, () => false);
  useEffect(() => {
    void setupI18n();
  }, []);
  return ready ? children : <LoadingOverlay />;
}

function RouteChangeOverlay() {
  return useRouteChangeToOtherPath() ? <LoadingOverlay /> : null;
}
