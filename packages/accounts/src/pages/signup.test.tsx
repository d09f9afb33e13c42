// /signup against the fake server: field-level validation, the strength hint loaded only once a
// password is typed, the way on to /verify, and the failures.
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { savedReferralSource } from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { apiOrigin, makeKeys } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import SignupPage from './signup.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const mockEstimatorLoaded = jest.fn();
jest.mock('@zxcvbn-ts/core', () => {
  mockEstimatorLoaded();
  return jest.requireActual('@zxcvbn-ts/core');
});

const t = fakeServerPerTest();
const email = 'grace@example.org';
const password = 'a long password';

beforeEach(() => {
  mockRouter = fakeRouter('/signup');
});

const fields = () => ({
  email: screen.getByRole('textbox', { name: 'E-mail address' }),
  password: screen.getByLabelText('Password'),
  confirmation: screen.getByLabelText('Confirm password'),
  referral: screen.getByRole('textbox', { name: 'How did you hear about us? (optional)' }),
});

async function fillIn(values: { email?: string; password?: string; confirmation?: string; referral?: string }) {
  const user = userEvent.setup();
  renderInShell(<SignupPage />);
  const { email: emailField, password: passwordField, confirmation, referral } = fields();
  if (values.email) await enter(user, emailField, values.email);
  if (values.password) await enter(user, passwordField, values.password);
  if (values.confirmation) await enter(user, confirmation, values.confirmation);
  if (values.referral) await enter(user, referral, values.referral);
  return user;
}

/** Pastes a value (typing it key by key adds nothing but time). */
async function enter(user: UserEvent, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

/** Keys with the small test parameters instead of seconds of sensitive Argon2id. */
async function withTestKeys() {
  const keys = await makeKeys(password);
  return jest.spyOn(t.crypto, 'generateKeyAttributes').mockResolvedValue(keys);
}

// First in this file: the estimator, once loaded, stays loaded for the page's lifetime (and this file's).
test('the strength hint: not loaded with the page, loaded at the first character', async () => {
  const user = userEvent.setup();
  renderInShell(<SignupPage />);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(mockEstimatorLoaded).not.toHaveBeenCalled();
  await user.type(fields().password, 'abc');
  expect(await screen.findByText('Password strength: weak')).toBeInTheDocument();
  expect(mockEstimatorLoaded).toHaveBeenCalledTimes(1);
  await user.paste(' correct horse battery staple');
  expect(await screen.findByText('Password strength: strong')).toBeInTheDocument();
});

test('the fields: e-mail first and focused, new passwords for the password manager', () => {
  renderInShell(<SignupPage />);
  const { email: emailField, password: passwordField, confirmation } = fields();
  expect(emailField).toHaveFocus();
  expect(passwordField).toHaveAttribute('type', 'password');
  expect(passwordField).toHaveAttribute('autocomplete', 'new-password');
  expect(confirmation).toHaveAttribute('autocomplete', 'new-password');
  expect(screen.getByRole('link', { name: 'I already have an account' })).toHaveAttribute('href', '/login');
});

test('the show-password button toggles what the password field shows', async () => {
  const user = await fillIn({ password: 'secret' });
  const [toggle] = screen.getAllByRole('button', { name: 'Show password' });
  expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await user.click(toggle!);
  expect(fields().password).toHaveAttribute('type', 'text');
  expect(toggle).toHaveAttribute('aria-pressed', 'true');
});

test('each problem is said next to its field, and the first one gets the focus', async () => {
  const user = await fillIn({ email: 'grace', password: 'short', confirmation: 'other' });
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  const { email: emailField, password: passwordField, confirmation } = fields();
  expect(emailField).toHaveAccessibleDescription('Enter a valid e-mail address, such as name@example.org.');
  expect(passwordField).toHaveAccessibleDescription('Use at least 8 characters.');
  expect(confirmation).toHaveAccessibleDescription('The passwords do not match.');
  expect(emailField).toHaveFocus();
  expect(t.fake.requests).toEqual([]);
});

test('an empty form asks for the e-mail address and the password', async () => {
  const user = await fillIn({});
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  expect(fields().email).toHaveAccessibleDescription('Enter your e-mail address.');
  expect(fields().password).toHaveAccessibleDescription('Enter your password.');
  expect(fields().confirmation).not.toHaveAttribute('aria-invalid', 'true');
});

test('a valid form makes the keys and goes to /verify, with the referral kept', async () => {
  const generate = await withTestKeys();
  await fillIn({ email: 'Grace@Example.org ', password, confirmation: password, referral: ' a friend ' });
  await userEvent.setup().keyboard('{Enter}');
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/verify'));
  expect(generate).toHaveBeenCalledWith(password);
  expect(t.fake.requestsTo('post', '/users/ott')[0]?.body).toMatchObject({ email, purpose: 'signup' });
  expect(savedUser()).toEqual({ email });
  expect(savedReferralSource()).toBe('a friend');
});

test('an address that has an account: "already registered" next to the e-mail field', async () => {
  await withTestKeys();
  await t.fake.addAccount(email, 'another password');
  const user = await fillIn({ email, password, confirmation: password });
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  await waitFor(() =>
    expect(fields().email).toHaveAccessibleDescription(
      'An account with this e-mail address already exists. Please sign in.',
    ),
  );
  expect(mockRouter.push).not.toHaveBeenCalled();
  expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled();
});

test.each([
  [
    'refuses new accounts',
    () => HttpResponse.json({}, { status: 403 }),
    'New accounts cannot be created on this server.',
  ],
  ['rate-limits', () => HttpResponse.json({}, { status: 429 }), 'Too many attempts. Please try again later.'],
  ['cannot be reached', () => HttpResponse.error(), 'Could not reach the server. Please check your connection.'],
])('a server that %s: its message in the alert', async (_, resolver, message) => {
  await withTestKeys();
  t.msw.use(http.post(`${apiOrigin}/users/ott`, resolver));
  const user = await fillIn({ email, password, confirmation: password });
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
  expect(savedUser()).toBeUndefined();
});

test('while working, the form is disabled', async () => {
  await withTestKeys();
  let answer: (() => void) | undefined;
  t.msw.use(
    http.post(`${apiOrigin}/users/ott`, async () => {
      await new Promise<void>((resolve) => (answer = resolve));
      return new HttpResponse(null, { status: 200 });
    }),
  );
  const user = await fillIn({ email, password, confirmation: password });
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  await waitFor(() => expect(answer).toBeDefined());
  expect(screen.getByRole('button', { name: 'Loading' })).toBeDisabled();
  expect(fields().email).toBeDisabled();
  expect(fields().password).toBeDisabled();
  answer?.();
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/verify'));
});
