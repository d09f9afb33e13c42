import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeRouter, type FakeRouter } from '../app/fake-router.ts';
import { renderInShell } from '../app/testing.tsx';
import { i18n } from '../i18n/i18n.ts';
import { logout } from '../logout.ts';
import { appTheme } from '../theme.ts';
import { PageHeader } from './PageHeader.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
jest.mock('../logout.ts', () => ({ logout: jest.fn(async () => undefined) }));
jest.mock('../log.ts', () => ({ log: { info: jest.fn(), warn: jest.fn(), error: jest.fn() } }));

const signedInUser = { id: 7, email: 'ada@example.org', token: 'token-7' };

beforeEach(() => {
  mockRouter = fakeRouter('/auth');
  jest.mocked(logout).mockClear();
});

afterEach(async () => {
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

test('switches the theme, saves it under `theme` and moves the theme-color meta with it', async () => {
  const user = userEvent.setup();
  const meta = document.head.appendChild(Object.assign(document.createElement('meta'), { name: 'theme-color' }));
  renderHeader();
  await waitFor(() => expect(meta).toHaveAttribute('content', appTheme('dark').palette.background.default));
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  expect(await screen.findByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');
  await user.click(screen.getByRole('menuitemradio', { name: 'Light' }));
  expect(localStorage.getItem('theme')).toBe('"light"');
  expect(meta).toHaveAttribute('content', appTheme('light').palette.background.default);
  expect(appTheme('light').palette.background.default).not.toBe(appTheme('dark').palette.background.default);
  meta.remove();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  expect(await screen.findByRole('menuitemradio', { name: 'Light' })).toHaveAttribute('aria-checked', 'true');
  expect(screen.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'false');
});

test('offers the nine languages by their own names and switches to one, saving it under `locale`', async () => {
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

  await user.click(screen.getByRole('menuitemradio', { name: 'Deutsch' }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Menü' })).toBeInTheDocument());
  expect(localStorage.getItem('locale')).toBe('"de-DE"');
  expect(document.documentElement.lang).toBe('de-DE');
  await user.click(screen.getByRole('button', { name: 'Menü' }));
  expect(await screen.findByRole('menuitemradio', { name: 'Deutsch' })).toHaveAttribute('aria-checked', 'true');
  expect(screen.getByRole('menuitemradio', { name: 'Dunkel' })).toBeInTheDocument();
});

test('offers no logout when signed out', async () => {
  const user = userEvent.setup();
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  expect(screen.queryByRole('menuitem', { name: 'Log out' })).not.toBeInTheDocument();
});

test('logs out when signed in, then goes to /', async () => {
  const user = userEvent.setup();
  localStorage.setItem('user', JSON.stringify(signedInUser));
  let loggedOut = false;
  jest.mocked(logout).mockImplementation(async () => {
    expect(mockRouter.push).not.toHaveBeenCalled();
    loggedOut = true;
  });
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/'));
  expect(loggedOut).toBe(true);
  expect(logout).toHaveBeenCalledTimes(1);
});

test('a logout the server did not confirm still goes to /, then shows the failure dialog', async () => {
  const user = userEvent.setup();
  localStorage.setItem('user', JSON.stringify(signedInUser));
  jest.mocked(logout).mockRejectedValueOnce(new Error('server error'));
  renderHeader();
  await user.click(screen.getByRole('button', { name: 'Menu' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
  await waitFor(() => expect(screen.getByRole('dialog')).toHaveAccessibleName('Error'));
  expect(mockRouter.push).toHaveBeenCalledWith('/');
});
