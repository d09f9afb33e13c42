// The app shell as a whole. Each test loads the shell in a fresh module registry, as a page load would
// (the i18n setup, the theme choice and the app name are module state).
import type { jest as jestTypes } from '@jest/globals';
import type { ComponentType } from 'react';

import { fakeRouter, type FakeRouter } from '../testing/fake-router.ts';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
// next/head needs Next's head manager; React 19 itself hoists a rendered <title> into document.head.
jest.mock('next/head', () => ({ __esModule: true, default: ({ children }: { children: unknown }) => children }));
jest.mock('../progress-bar.ts', () => ({ progressBar: { start: jest.fn(), done: jest.fn() } }));

let cleanup: () => void = () => undefined;

beforeEach(() => {
  mockRouter = fakeRouter('/auth');
  document.documentElement.lang = 'en';
  document.title = '';
});

afterEach(() => {
  cleanup();
  jest.useRealTimers();
  localStorage.clear();
  jest.restoreAllMocks();
});

/** Loads the shell (and what a page would see) in a fresh module registry, renders it, and returns the tools. */
async function loadShell() {
  let loaded!: Awaited<ReturnType<typeof importShell>>;
  await jest.isolateModulesAsync(async () => {
    loaded = await importShell();
  });
  const { rtl, createApp, useTheme, useTranslation, appName, loadingBar } = loaded;
  cleanup = rtl.cleanup;

  // Created before the page renders, like an app's _app module.
  const App = createApp({ name: 'auth' }) as ComponentType<{ Component: ComponentType; pageProps: object }>;
  function Page() {
    const theme = useTheme();
    const { t } = useTranslation('common');
    return (
      <main>
        <h1>{t('title_auth')}</h1>
        <p data-testid="mode">{theme.palette.mode}</p>
        <p data-testid="logout-text">{t('logout')}</p>
      </main>
    );
  }
  const view = rtl.render(<App Component={Page} pageProps={{}} />);
  return { ...rtl, view, appName, loadingBar };
}

async function importShell() {
  const rtl = await import('@testing-library/react/pure');
  const { createApp } = await import('./create-app.tsx');
  const { useTheme } = await import('@mui/material/styles');
  const { useTranslation } = await import('react-i18next');
  const { appName } = await import('../app-name.ts');
  // This registry's mock of the bar (see jest.mock above), typed as what it is.
  const loadingBar = jest.requireMock<{ progressBar: { start: jestTypes.Mock; done: jestTypes.Mock } }>(
    '../progress-bar.ts',
  ).progressBar;
  return { rtl, createApp, useTheme, useTranslation, appName, loadingBar };
}

const overlay = () => document.querySelector('[data-testid="loading-overlay"]');

test('the loading overlay covers the app until setup is done', async () => {
  const { screen } = await loadShell();
  expect(overlay()).toBeInTheDocument();
  expect(screen.queryByRole('main')).not.toBeInTheDocument();
  await screen.findByRole('main');
  expect(overlay()).not.toBeInTheDocument();
});

test('then the page shows in dark and en-US, with the title and name of the app', async () => {
  // Neither the saved locale nor the browser languages are supported: en-US.
  localStorage.setItem('locale', '"it-IT"');
  jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['it-IT', 'ja-JP']);
  const { screen, appName } = await loadShell();
  expect(await screen.findByRole('heading', { level: 1, name: 'Ente Auth' })).toBeInTheDocument();
  expect(screen.getByTestId('mode').textContent).toBe('dark');
  expect(screen.getByTestId('logout-text').textContent).toBe('Log out');
  expect(document.documentElement.lang).toBe('en-US');
  expect(document.title).toBe('Ente Auth');
  expect(appName()).toBe('auth');
});

test('the overlay shows during a route change to another path, until it completes or fails', async () => {
  const { screen, act } = await loadShell();
  await screen.findByRole('main');

  act(() => mockRouter.events.emit('routeChangeStart', '/login', { shallow: false }));
  expect(overlay()).toBeInTheDocument();
  act(() => mockRouter.events.emit('routeChangeComplete', '/login', { shallow: false }));
  expect(overlay()).not.toBeInTheDocument();

  act(() => mockRouter.events.emit('routeChangeStart', '/verify?x=1', { shallow: false }));
  expect(overlay()).toBeInTheDocument();
  act(() => mockRouter.events.emit('routeChangeError', new Error('aborted'), '/verify?x=1', { shallow: false }));
  expect(overlay()).not.toBeInTheDocument();
});

test('the loading bar runs through route changes and completes 100 ms after the last one ended', async () => {
  const { screen, act, loadingBar } = await loadShell();
  await screen.findByRole('main');
  jest.useFakeTimers();
  act(() => mockRouter.events.emit('routeChangeStart', '/login', { shallow: false }));
  act(() => mockRouter.events.emit('routeChangeComplete', '/login', { shallow: false }));
  act(() => mockRouter.events.emit('routeChangeStart', '/verify', { shallow: false }));
  act(() => mockRouter.events.emit('routeChangeError', new Error('aborted'), '/verify', { shallow: false }));
  expect(loadingBar.start).toHaveBeenCalledTimes(1);
  act(() => jest.advanceTimersByTime(99));
  expect(loadingBar.done).not.toHaveBeenCalled();
  act(() => jest.advanceTimersByTime(1));
  expect(loadingBar.done).toHaveBeenCalledTimes(1);
});

test('a change of the query string alone keeps the page and runs the loading bar', async () => {
  const { screen, act, loadingBar } = await loadShell();
  await screen.findByRole('main');
  act(() => mockRouter.events.emit('routeChangeStart', '/auth?code=3', { shallow: true }));
  expect(overlay()).not.toBeInTheDocument();
  expect(screen.getByRole('main')).toBeInTheDocument();
  expect(loadingBar.start).toHaveBeenCalledTimes(1);
});

test('the offline banner appears on going offline once ready, and goes on going online', async () => {
  const onLine = jest.spyOn(navigator, 'onLine', 'get');
  const { screen, act } = await loadShell();
  await screen.findByRole('main');
  expect(screen.getByRole('status')).toHaveTextContent('');

  onLine.mockReturnValue(false);
  act(() => void window.dispatchEvent(new Event('offline')));
  expect(screen.getByRole('status')).toHaveTextContent("You are offline. Some things won't work until you reconnect.");

  onLine.mockReturnValue(true);
  act(() => void window.dispatchEvent(new Event('online')));
  expect(screen.getByRole('status')).toHaveTextContent('');
});

test('offline from the start: no banner before the app is ready, the banner once it is', async () => {
  jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  const { screen } = await loadShell();
  expect(screen.queryByText(/You are offline/)).not.toBeInTheDocument();
  await screen.findByRole('main');
  expect(screen.getByRole('status')).toHaveTextContent(/You are offline/);
});

test('a saved theme and a saved supported locale are restored on load; <html lang> follows', async () => {
  localStorage.setItem('theme', '"light"');
  localStorage.setItem('locale', '"fr-FR"');
  jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE']);
  const { screen } = await loadShell();
  await screen.findByRole('main');
  expect(screen.getByTestId('mode').textContent).toBe('light');
  expect(screen.getByTestId('logout-text').textContent).toBe('Se déconnecter');
  expect(document.documentElement.lang).toBe('fr-FR');
});

test('without a saved locale the first matching browser language decides', async () => {
  jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['it-IT', 'pt-BR', 'en-US']);
  const { screen } = await loadShell();
  await screen.findByRole('main');
  expect(screen.getByTestId('logout-text').textContent).toBe('Sair');
  expect(document.documentElement.lang).toBe('pt-BR');
});
