// The account parts of the shell (account-ui.tsx): the settings item of the app menu and the session
// watcher, each loaded only when needed, with stand-ins for the components of packages/accounts.
import 'fake-indexeddb/auto';

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';

import { PageHeader } from '../components/PageHeader.tsx';
import { log } from '../log.ts';
import { saveUser } from '../storage/local-storage.ts';
import { renderInShell } from '../testing/render-in-shell.tsx';
import { AccountUIContext, SignedInSessionWatcher, type AccountUI, type SettingsProps } from './account-ui.tsx';

jest.mock('../log.ts', () => ({ log: { info: jest.fn(), warn: jest.fn(), error: jest.fn() } }));

function FakeSettings({ open, onClose }: SettingsProps) {
  return open ? (
    <div role="dialog" aria-label="Fake settings">
      <button onClick={onClose}>Close settings</button>
    </div>
  ) : null;
}

function FakeWatcher() {
  return <p>watching</p>;
}

function fakeAccountUI(overrides: Partial<AccountUI> = {}) {
  return {
    loadSettings: jest.fn(() => Promise.resolve(FakeSettings)),
    loadSessionWatcher: jest.fn(() => Promise.resolve(FakeWatcher)),
    ...overrides,
  } satisfies AccountUI;
}

function renderWith(accountUI: AccountUI | undefined, ui: ReactNode) {
  return renderInShell(<AccountUIContext value={accountUI}>{ui}</AccountUIContext>);
}

const signIn = () => saveUser({ id: 7, email: 'ada@example.org', token: 'token-7' });

afterEach(() => {
  jest.clearAllMocks();
  localStorage.clear();
});

describe('the settings item of the app menu', () => {
  test('shows while signed in and loads the settings only when chosen', async () => {
    await signIn();
    const accountUI = fakeAccountUI();
    const user = userEvent.setup();
    renderWith(accountUI, <PageHeader />);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const item = await screen.findByRole('menuitem', { name: 'Settings' });
    expect(accountUI.loadSettings).not.toHaveBeenCalled();
    await user.click(item);
    expect(await screen.findByRole('dialog', { name: 'Fake settings' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Close settings' }));
    expect(screen.queryByRole('dialog', { name: 'Fake settings' })).not.toBeInTheDocument();

    // Opened again without loading again.
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Settings' }));
    expect(await screen.findByRole('dialog', { name: 'Fake settings' })).toBeInTheDocument();
    expect(accountUI.loadSettings).toHaveBeenCalledTimes(1);
  });

  test('is not there when signed out, nor in an app without account parts', async () => {
    const user = userEvent.setup();
    const { unmount } = renderWith(fakeAccountUI(), <PageHeader />);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await screen.findByRole('menu');
    expect(screen.queryByRole('menuitem', { name: 'Settings' })).not.toBeInTheDocument();
    unmount();

    await signIn();
    renderWith(undefined, <PageHeader />);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await screen.findByRole('menuitem', { name: 'Log out' });
    expect(screen.queryByRole('menuitem', { name: 'Settings' })).not.toBeInTheDocument();
  });

  test('settings that cannot be loaded show the failure dialog', async () => {
    await signIn();
    const user = userEvent.setup();
    renderWith(fakeAccountUI({ loadSettings: () => Promise.reject(new Error('offline')) }), <PageHeader />);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Settings' }));
    expect(await screen.findByRole('dialog', { name: 'Error' })).toBeInTheDocument();
    expect(log.error).toHaveBeenCalledWith('Could not load the settings', expect.any(Error));
  });
});

describe('the session watcher', () => {
  test('is loaded and shown only while signed in', async () => {
    const accountUI = fakeAccountUI();
    const { unmount } = renderWith(accountUI, <SignedInSessionWatcher />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(accountUI.loadSessionWatcher).not.toHaveBeenCalled();
    expect(screen.queryByText('watching')).not.toBeInTheDocument();
    unmount();

    await signIn();
    renderWith(accountUI, <SignedInSessionWatcher />);
    expect(await screen.findByText('watching')).toBeInTheDocument();
    expect(accountUI.loadSessionWatcher).toHaveBeenCalledTimes(1);
  });

  test('a watcher that cannot be loaded is logged and nothing else happens', async () => {
    await signIn();
    renderWith(
      fakeAccountUI({ loadSessionWatcher: () => Promise.reject(new Error('offline')) }),
      <SignedInSessionWatcher />,
    );
    await waitFor(() => expect(log.warn).toHaveBeenCalledWith('Could not load the session watcher', expect.any(Error)));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
