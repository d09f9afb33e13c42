/**
 * @jest-environment-options {"url": "https://auth.ente.com/login"}
 */
// On the hosted apps the developer settings never open: neither by clicks nor by the shortcut.
import 'fake-indexeddb/auto';

import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { fakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import LoginPage from './login.tsx';

jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
const mockRouter = fakeRouter('/login');

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

/** Lets the time pass in which an opened dialog would have loaded and shown, then checks there is none. */
async function expectNoDialog() {
  await act(() => jest.advanceTimersByTimeAsync(50));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
}

test('the page is served from a hosted hostname', () => {
  expect(window.location.hostname).toBe('auth.ente.com');
});

test('clicks on the page background do not open the developer settings', async () => {
  const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
  renderInShell(<LoginPage />);
  const main = screen.getByRole('main');
  for (let i = 0; i < 14; i++) await user.click(main);
  await expectNoDialog();
});

test('the keyboard shortcut does not open the developer settings', async () => {
  renderInShell(<LoginPage />);
  fireEvent.keyDown(window, { code: 'KeyD', altKey: true, shiftKey: true });
  await expectNoDialog();
});
