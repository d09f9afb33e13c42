// /generate against the fake server: after sign-up the 24 recovery words, to be acknowledged before
// the app's home; for an interrupted sign-up first a password; for anyone else, elsewhere.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { savedJustSignedUp } from '@ente/shared/storage/account-storage.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { signUp } from '../services/sign-up.ts';
import { verifyEmail } from '../services/verify.ts';
import { emailCode, makeKeys } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import GeneratePage from './generate.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const t = fakeServerPerTest();
const email = 'grace@example.org';
const password = 'a long password';

beforeEach(() => {
  mockRouter = fakeRouter('/generate');
});

/** Keys with the small test parameters instead of seconds of sensitive Argon2id. */
async function withTestKeys() {
  const keys = await makeKeys(password);
  jest.spyOn(t.crypto, 'generateKeyAttributes').mockResolvedValue(keys);
  return keys;
}

test('after sign-up: the recovery words, and Continue only once they are saved', async () => {
  const keys = await withTestKeys();
  await signUp({ email, password });
  expect(await verifyEmail(emailCode)).toBe('/generate');

  renderInShell(<GeneratePage />);
  expect(await screen.findByRole('heading', { level: 1, name: 'Save your recovery key' })).toBeInTheDocument();
  const words = (await cryptoAPI.recoveryKeyToWords(keys.recoveryKey)).split(' ');
  const items = within(screen.getByRole('list', { name: 'Your recovery key' })).getAllByRole('listitem');
  expect(items.map((item) => item.textContent)).toEqual(words.map((word, i) => `${i + 1}.${word}`));

  const user = userEvent.setup();
  const next = screen.getByRole('button', { name: 'Continue' });
  expect(next).toBeDisabled();
  await user.click(screen.getByRole('checkbox', { name: 'I saved my recovery key in a safe place.' }));
  expect(next).toBeEnabled();
  await user.click(next);
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/auth'));
  expect(savedJustSignedUp()).toBe(false);
});

test('an interrupted sign-up: a password first (checked), then the words', async () => {
  t.fake.addAccountWithoutKeys(email);
  await saveUser({ email });
  expect(await verifyEmail(emailCode)).toBe('/generate');
  const keys = await withTestKeys();

  renderInShell(<GeneratePage />);
  expect(await screen.findByRole('heading', { level: 1, name: 'Set your password' })).toBeInTheDocument();
  const user = userEvent.setup();
  const passwordField = screen.getByLabelText('Password');
  expect(passwordField).toHaveFocus();
  await user.type(passwordField, 'short{Enter}');
  expect(passwordField).toHaveAccessibleDescription('Use at least 8 characters.');
  await user.clear(passwordField);
  await user.type(passwordField, password);
  await user.type(screen.getByLabelText('Confirm password'), 'something else{Enter}');
  expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription('The passwords do not match.');
  expect(t.fake.requestsTo('put', '/users/attributes')).toEqual([]);

  await user.clear(screen.getByLabelText('Confirm password'));
  await user.type(screen.getByLabelText('Confirm password'), `${password}{Enter}`);
  expect(await screen.findByRole('heading', { level: 1, name: 'Save your recovery key' })).toBeInTheDocument();
  expect(t.fake.requestsTo('put', '/users/attributes')[0]?.body).toEqual({ keyAttributes: keys.keyAttributes });
  const first = (await cryptoAPI.recoveryKeyToWords(keys.recoveryKey)).split(' ')[0];
  expect(within(screen.getByRole('list')).getAllByRole('listitem')[0]).toHaveTextContent(`1.${first}`);
});

test('with nothing to show, goes elsewhere', async () => {
  renderInShell(<GeneratePage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
  expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
});
