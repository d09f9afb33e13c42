// /credentials against the fake server: the password by SRP after /login, unlocking a returning tab,
// the KEK stashed before the second factor taking the place of the password, the failures next to
// the field or in the alert, and the ways out (forgot password, another account).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { reloadAt } from '@ente/shared/app/navigation.ts';
import { changeLocale } from '@ente/shared/i18n/i18n.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { startLogin, submitPassword } from '../services/login.ts';
import { isSignedInAndUnlocked } from '../services/session.ts';
import { verifyTwoFactor } from '../services/two-factor.ts';
import { apiOrigin, totpCode } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import CredentialsPage from './credentials.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
jest.mock('@ente/shared/app/navigation.ts', () => ({ reloadAt: jest.fn() }));

const t = fakeServerPerTest();
const email = 'ada@example.org';
const password = 'correct horse';

beforeEach(() => {
  mockRouter = fakeRouter('/credentials');
  jest.mocked(reloadAt).mockClear();
});

async function renderAfterLogin(options: { twoFactor?: boolean } = {}, label = 'Password') {
  await t.fake.addAccount(email, password, options);
  expect(await startLogin(email)).toBe('/credentials');
  renderInShell(<CredentialsPage />);
  return screen.findByLabelText(label);
}

test('asks for the password of the address, focused, for the password manager', async () => {
  const field = await renderAfterLogin();
  expect(field).toHaveFocus();
  expect(field).toHaveAttribute('autocomplete', 'current-password');
  expect(screen.getByText(`Enter the password of ${email} to unlock your data on this device.`)).toBeInTheDocument();
  expect(document.querySelector('input[autocomplete="username"]')).toHaveValue(email);
  expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/recover');
});

test('while the password is typed, the home page is fetched ahead (and only then)', async () => {
  await renderAfterLogin();
  expect(mockRouter.prefetch).toHaveBeenCalledWith('/auth');
});

test('a visit without a sign-in under way fetches nothing ahead', async () => {
  renderInShell(<CredentialsPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
  expect(mockRouter.prefetch).not.toHaveBeenCalled();
});

test('the right password signs in by SRP and goes home', async () => {
  const field = await renderAfterLogin();
  const user = userEvent.setup();
  await user.type(field, `${password}{Enter}`);
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/auth'));
  expect(isSignedInAndUnlocked()).toBe(true);
  expect(t.fake.requestsTo('post', '/users/srp/verify-session')).toHaveLength(1);
});

test('an empty password is asked for, without asking the server', async () => {
  await renderAfterLogin();
  await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
  expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Enter your password.');
  expect(t.fake.requestsTo('post', '/users/srp/create-session')).toEqual([]);
});

test('a wrong password: said next to the field, and the form can be used again', async () => {
  const field = await renderAfterLogin();
  const user = userEvent.setup();
  await user.type(field, 'wrong password{Enter}');
  await waitFor(() =>
    expect(field).toHaveAccessibleDescription('Incorrect password, or there is no account with this e-mail address.'),
  );
  expect(field).toBeEnabled();
  expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  expect(mockRouter.push).not.toHaveBeenCalled();
  expect(savedUser()?.token).toBeUndefined();
});

test('a wrong password in French', async () => {
  await changeLocale('fr-FR');
  try {
    const field = await renderAfterLogin({}, 'Mot de passe');
    await userEvent.setup().type(field, 'wrong password{Enter}');
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(
        'Mot de passe incorrect, ou aucun compte n’existe avec cette adresse e-mail.',
      ),
    );
  } finally {
    await changeLocale('en-US');
  }
});

test.each([
  [
    'too many wrong attempts',
    () => HttpResponse.json({ code: 'TOO_MANY_WRONG_ATTEMPTS', message: '' }, { status: 410 }),
    'Too many incorrect attempts. Please try again later.',
  ],
  [
    'a rate limit',
    () => HttpResponse.json({ error: 'Rate limit breached, try later' }, { status: 429 }),
    'Too many attempts. Please try again later.',
  ],
  ['no network', () => HttpResponse.error(), 'Could not reach the server. Please check your connection.'],
])('%s: its message in the alert', async (_, resolver, message) => {
  t.msw.use(http.post(`${apiOrigin}/users/srp/verify-session`, resolver));
  const field = await renderAfterLogin();
  await userEvent.setup().type(field, `${password}{Enter}`);
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
});

test('with two-factor on, the password leads to /two-factor/verify', async () => {
  const field = await renderAfterLogin({ twoFactor: true });
  await userEvent.setup().type(field, `${password}{Enter}`);
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/two-factor/verify'));
});

test('back from the second factor, the stashed KEK signs in: no password is asked', async () => {
  await t.fake.addAccount(email, password, { twoFactor: true });
  await startLogin(email);
  expect(await submitPassword(password)).toBe('/two-factor/verify');
  expect(await verifyTwoFactor(totpCode)).toBe('/credentials');
  const derive = jest.spyOn(t.crypto, 'deriveKEK');

  renderInShell(<CredentialsPage />);
  expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/auth'));
  expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  expect(derive).not.toHaveBeenCalled();
  expect(isSignedInAndUnlocked()).toBe(true);
});

test('a returning tab unlocks with the password from the local key attributes', async () => {
  await t.fake.addAccount(email, password);
  await startLogin(email);
  await submitPassword(password);
  sessionStorage.clear();
  expect(isSignedInAndUnlocked()).toBe(false);
  t.fake.requests.length = 0;

  renderInShell(<CredentialsPage />);
  const field = await screen.findByLabelText('Password');
  const user = userEvent.setup();
  await user.type(field, 'wrong password{Enter}');
  await waitFor(() => expect(field).toHaveAccessibleDescription(/^Incorrect password/));
  await user.clear(field);
  await user.type(field, `${password}{Enter}`);
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/auth'));
  expect(isSignedInAndUnlocked()).toBe(true);
  // Unlocking is local: no SRP round trip.
  expect(t.fake.requestsTo('post', '/users/srp/create-session')).toEqual([]);
});

test('with nothing to unlock, goes to /login', async () => {
  renderInShell(<CredentialsPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
  expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
});

test('"use another account" logs out and loads /login afresh', async () => {
  await renderAfterLogin();
  await userEvent.setup().click(screen.getByRole('button', { name: 'Use another account' }));
  await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/login'));
  expect(savedUser()).toBeUndefined();
});
