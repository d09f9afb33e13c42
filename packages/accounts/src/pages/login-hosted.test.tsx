/**
 * @jest-environment-options {"url": "https://auth.ente.com/login"}
 */
// On the hosted apps the developer settings never open: neither by clicks nor by the shortcut.
import 'fake-indexeddb/auto';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeRouter } from '@ente/shared/app/fake-router.ts';
import { renderInShell } from '@ente/shared/app/testing.tsx';
import LoginPage from './login.tsx';

jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
const mockRouter = fakeRouter('/login');

test('the developer settings are disabled on a hosted hostname', async () => {
  expect(window.location.hostname).toBe('auth.ente.com');
  const user = userEvent.setup();
  renderInShell(<LoginPage />);
  const main = screen.getByRole('main');
  for (let i = 0; i < 14; i++) await user.click(main);
  fireEvent.keyDown(window, { code: 'KeyD', altKey: true, shiftKey: true });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});
