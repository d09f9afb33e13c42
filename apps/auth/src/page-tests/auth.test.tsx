// The tests of the app's page modules live here, not beside them: Next treats every file under src/pages as a page.
import { act, screen } from '@testing-library/react';

import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import Page from '../pages/auth.tsx';

let router: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => router }));
jest.mock('../components/VaultPage.tsx', () => ({ __esModule: true, default: () => <p>the codes</p> }));

const keyAttributes = {
  kekSalt: 's',
  opsLimit: 2,
  memLimit: 67108864,
  encryptedKey: 'k',
  keyDecryptionNonce: 'n',
  publicKey: 'p',
  encryptedSecretKey: 'e',
  secretKeyDecryptionNonce: 'n',
};

beforeEach(() => {
  router = fakeRouter('/auth');
  localStorage.clear();
  sessionStorage.clear();
});

function signIn() {
  localStorage.setItem('user', JSON.stringify({ id: 1, email: 'a@example.org', token: 't' }));
}

test('a signed-out visitor goes to /login', () => {
  renderInShell(<Page />);
  expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
  expect(router.replace).toHaveBeenCalledWith('/login');
});

test('signed in without keys: /generate; with keys but locked: /credentials', () => {
  signIn();
  const { unmount } = renderInShell(<Page />);
  expect(router.replace).toHaveBeenLastCalledWith('/generate');
  unmount();
  localStorage.setItem('keyAttributes', JSON.stringify(keyAttributes));
  renderInShell(<Page />);
  expect(router.replace).toHaveBeenLastCalledWith('/credentials');
});

test('signed in and unlocked: the codes load, no redirect', async () => {
  signIn();
  localStorage.setItem('keyAttributes', JSON.stringify(keyAttributes));
  sessionStorage.setItem('encryptionKey', JSON.stringify({ encryptedData: 'd', key: 'k', nonce: 'n' }));
  await act(async () => {
    renderInShell(<Page />);
    await Promise.resolve();
  });
  expect(await screen.findByText('the codes')).toBeInTheDocument();
  expect(router.replace).not.toHaveBeenCalled();
});
