import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { reloadAt } from '../app/navigation.ts';
import { ServerError } from '../http.ts';
import { i18n } from '../i18n/i18n.ts';
import { log } from '../log.ts';
import { logout } from '../logout.ts';
import { renderInShell } from '../testing/render-in-shell.tsx';
import { appTheme } from '../theme.ts';
import { PageHeader } from './PageHeader.tsx';

jest.mock('../app/navigation.ts', () => ({ reloadAt: jest.fn() }));
jest.mock('../logout.ts', () => ({ logout: jest.fn(() => Promise.resolve()) }));
jest.mock('../log.ts', () => ({ log: { info: jest.fn(), warn: jest.fn(), error: jest.fn() } }));

const signedInUser = { id: 7, email: 'ada@example.org', token: 'token-7' };

afterEach(async () => {
  jest.clearAllMocks();
  jest.restoreAllMocks();
  localStorage.clear();
  await i18n.changeLanguage('en-US');
});

function renderHeader() {
  renderInShell(<PageHeader />);
}

test('the header shows the logo with an accessible name', () => {
  renderHeader();
  expect(screen.getByRole('img', { name: 'Ente' })).toBeInTheDocument();
});

test('the menu opens from its labelled button by keyboard and closes with Escape', async () => {
  const user = userEvent.setup();
  renderHeader();
  const button = screen.getByRole('button', { name: 'Menu' });
  expect(button).toHaveAttribute('aria-haspopup', 'menu');
  await user.tab();
  expect(button).toHaveFocus();
  await user.keyboard('{Enter}');
  const menu = await screen.findByRole('menu');
  expect(menu).toHaveAccessibleName('Menu');
  expect(button).toHaveAttribute('aria-expanded', 'true');
  // Focus starts on the selected theme and the arrow keys move it.
  await waitFor(() => expect(within(menu).getByRole('menuitemradio', { name: 'Dark' })).toHaveFocus());
  await user.keyboard('{ArrowDown}');
  expect(within(menu).getByRole('menuitemradio', { name: 'English' })).toHaveFocus();
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  expect(button).toHaveFocus();
});

test('switches the theme and saves it under `theme`', async () => {
  const user = userEvent.setup();
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  expect(await screen.findByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');
  await user.click(screen.getByRole('menuitemradio', { name: 'Light' }));
  expect(localStorage.getItem('theme')).toBe('"light"');
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  expect(await screen.findByRole('menuitemradio', { name: 'Light' })).toHaveAttribute('aria-checked', 'true');
  expect(screen.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'false');
});

test('the theme-color meta follows the theme', async () => {
  const user = userEvent.setup();
  const meta = document.head.appendChild(Object.assign(document.createElement('meta'), { name: 'theme-color' }));
  renderHeader();
  for (const [name, mode] of [
    ['Light', 'light'],
    ['Dark', 'dark'],
  ] as const) {
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(await screen.findByRole('menuitemradio', { name }));
    await waitFor(() => expect(meta).toHaveAttribute('content', appTheme(mode).palette.background.default));
  }
  expect(appTheme('light').palette.background.default).not.toBe(appTheme('dark').palette.background.default);
  meta.remove();
});

test('offers the nine languages, each by its own name and in its own language', async () => {
  const user = userEvent.setup();
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  const names = [
    'English',
    'Français',
    'Deutsch',
    '中文（简体）',
    'Nederlands',
    'Español',
    'Português (Brasil)',
    'Русский',
    'Polski',
  ];
  for (const name of names) expect(screen.getByRole('menuitemradio', { name })).toBeInTheDocument();
  expect(screen.getByRole('menuitemradio', { name: 'Deutsch' })).toHaveAttribute('lang', 'de-DE');
});

test('switches to a language, saving it under `locale`', async () => {
  const user = userEvent.setup();
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  await user.click(screen.getByRole('menuitemradio', { name: 'Deutsch' }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Menü' })).toBeInTheDocument());
  expect(localStorage.getItem('locale')).toBe('"de-DE"');
  expect(document.documentElement.lang).toBe('de-DE');
  await user.click(screen.getByRole('button', { name: 'Menü' }));
  expect(await screen.findByRole('menuitemradio', { name: 'Deutsch' })).toHaveAttribute('aria-checked', 'true');
  expect(screen.getByRole('menuitemradio', { name: 'Dunkel' })).toBeInTheDocument();
});

test('a language that cannot be switched to shows the failure dialog', async () => {
  const user = userEvent.setup();
  const failure = new Error('chunk failed');
  jest.spyOn(i18n, 'changeLanguage').mockRejectedValueOnce(failure);
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  await user.click(screen.getByRole('menuitemradio', { name: 'Français' }));
  expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent('Something went wrong');
  expect(log.error).toHaveBeenCalledWith('Could not switch to fr-FR', failure);
  expect(localStorage.getItem('locale')).toBeNull();
});

test('offers no logout when signed out', async () => {
  const user = userEvent.setup();
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  expect(screen.queryByRole('menuitem', { name: 'Log out' })).not.toBeInTheDocument();
});

test('logs out when signed in, then loads / afresh', async () => {
  const user = userEvent.setup();
  localStorage.setItem('user', JSON.stringify(signedInUser));
  let loggedOut = false;
  jest.mocked(logout).mockImplementation(() => {
    expect(reloadAt).not.toHaveBeenCalled();
    loggedOut = true;
    return Promise.resolve();
  });
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
  await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/'));
  expect(loggedOut).toBe(true);
  expect(logout).toHaveBeenCalledTimes(1);
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

test('a logout the server did not confirm shows the failure dialog, and loads / once it is closed', async () => {
  const user = userEvent.setup();
  localStorage.setItem('user', JSON.stringify(signedInUser));
  jest.mocked(logout).mockRejectedValueOnce(new ServerError(500));
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
  const dialog = await screen.findByRole('dialog', { name: 'Error' });
  expect(dialog).toHaveTextContent('The server ran into a problem. Please try again later.');
  expect(reloadAt).not.toHaveBeenCalled();
  await user.click(within(dialog).getByRole('button', { name: 'OK' }));
  expect(reloadAt).toHaveBeenCalledWith('/');
});
