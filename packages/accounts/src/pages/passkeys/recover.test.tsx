// /passkeys/recover against the fake server: the recovery key signs in without the passkey (which
// stays); an account without passkey recovery is told to contact support; without a passkey sign-in
// under way the page goes to /login.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { savedUser, saveUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { verifyEmail } from '../../services/verify.ts';
import { emailCode, passkeyRecoverySecret } from '../../testing/fake-server.ts';
import { fakeServerPerTest } from '../../testing/flow-test-setup.ts';
import PasskeyRecoverPage from './recover.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const t = fakeServerPerTest();
const email = 'ada@example.org';

beforeEach(() => {
  mockRouter = fakeRouter('/passkeys/recover');
});

async function passkeySignIn() {
  const account = await t.fake.addAccount(email, 'correct horse', { passkey: true, srp: false });
  await saveUser({ email });
  expect(await verifyEmail(emailCode)).toMatch(/\/passkeys\/verify\?/);
  return account;
}

test('the recovery words sign in without the passkey', async () => {
  const account = await passkeySignIn();
  const passkeySessionID = savedUser()?.passkeySessionID;
  renderInShell(<PasskeyRecoverPage />);
  expect(screen.getByRole('heading', { level: 1, name: 'Sign in without your passkey' })).toBeInTheDocument();
  // Fetched on arrival.
  await waitFor(() => expect(t.fake.requestsTo('get', '/users/two-factor/recover')).toHaveLength(1));
  const user = userEvent.setup();
  await user.click(screen.getByRole('textbox', { name: 'Recovery key' }));
  await user.paste(await cryptoAPI.recoveryKeyToWords(account.keys.recoveryKey));
  await user.click(screen.getByRole('button', { name: 'Recover' }));
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/credentials'));
  expect(t.fake.requestsTo('post', '/users/two-factor/remove')[0]?.body).toEqual({
    twoFactorType: 'passkey',
    sessionID: passkeySessionID,
    secret: passkeyRecoverySecret,
  });
  // No link back to a TOTP code: this sign-in has none.
  expect(screen.queryByRole('link', { name: 'I have my authenticator app' })).not.toBeInTheDocument();
});

test('no passkey recovery on the account: contact support', async () => {
  const account = await passkeySignIn();
  delete t.fake.accounts.get(account.email)?.passkeyRecovery;
  renderInShell(<PasskeyRecoverPage />);
  const dialog = await screen.findByRole('dialog', { name: 'Sign in without your passkey' });
  expect(dialog).toHaveTextContent(/contact support/i);
});

test('no passkey sign-in under way: to /login', async () => {
  renderInShell(<PasskeyRecoverPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
  expect(t.fake.requestsTo('get', '/users/two-factor/recover')).toEqual([]);
});
