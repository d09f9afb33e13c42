import { act, screen } from '@testing-library/react';

import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { lazyModule, useSignedInModule, type LazyModule } from './use-signed-in-module.ts';

let router: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => router }));

// What the arrival rules read is only whether they are there; the values are placeholders.
const keyAttributeNames = [
  'kekSalt',
  'encryptedKey',
  'keyDecryptionNonce',
  'publicKey',
  'encryptedSecretKey',
  'secretKeyDecryptionNonce',
];
const keyAttributes = {
  ...Object.fromEntries(keyAttributeNames.map((name) => [name, 'AA'])),
  opsLimit: 2,
  memLimit: 1,
};

interface FakePage {
  Shown: () => React.JSX.Element;
}

let page: LazyModule<FakePage>;
let loads: number;

function Page() {
  const Shown = useSignedInModule(page)?.Shown;
  return Shown ? <Shown /> : <p>waiting</p>;
}

beforeEach(() => {
  router = fakeRouter('/gallery');
  localStorage.clear();
  sessionStorage.clear();
  loads = 0;
  page = lazyModule(() => {
    loads++;
    return Promise.resolve({ Shown: () => <p>the gallery</p> });
  });
});

const signIn = () => localStorage.setItem('user', JSON.stringify({ id: 1, email: 'a@example.org', token: 't' }));
const unlock = () => {
  localStorage.setItem('keyAttributes', JSON.stringify(keyAttributes));
  sessionStorage.setItem('encryptionKey', JSON.stringify({ encryptedData: 'd', key: 'k', nonce: 'n' }));
};

test('signed out: /login, signed in without keys: /generate, locked: /credentials; the module is not loaded', () => {
  const { unmount } = renderInShell(<Page />);
  expect(router.replace).toHaveBeenLastCalledWith('/login');
  unmount();
  signIn();
  renderInShell(<Page />).unmount();
  expect(router.replace).toHaveBeenLastCalledWith('/generate');
  localStorage.setItem('keyAttributes', JSON.stringify(keyAttributes));
  renderInShell(<Page />);
  expect(router.replace).toHaveBeenLastCalledWith('/credentials');
  expect(screen.getByText('waiting')).toBeInTheDocument();
  expect(loads).toBe(0);
});

test('signed in and unlocked: the module loads once, no redirect; a logout in another tab then redirects', async () => {
  signIn();
  unlock();
  await act(async () => {
    renderInShell(<Page />);
    await Promise.resolve();
  });
  expect(await screen.findByText('the gallery')).toBeInTheDocument();
  expect(router.replace).not.toHaveBeenCalled();
  expect(loads).toBe(1);

  act(() => {
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage'));
  });
  expect(router.replace).toHaveBeenCalledTimes(1);
  expect(router.replace).toHaveBeenCalledWith('/login');
  expect(screen.queryByText('the gallery')).not.toBeInTheDocument();
});

test('a failed load is tried again by the next page', async () => {
  signIn();
  unlock();
  let fail = true;
  page = lazyModule(() => (fail ? Promise.reject(new Error('offline')) : Promise.resolve({ Shown: () => <p>ok</p> })));
  await expect(page.load()).rejects.toThrow('offline');
  fail = false;
  await expect(page.load()).resolves.toBeDefined();
  expect(page.loaded()).toBeDefined();
});
