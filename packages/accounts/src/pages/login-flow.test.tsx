// /login against the fake server: the e-mail check, the way on (password or e-mail code) and each
// failure's message where it belongs.
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { saveKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { savedUser, saveUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { saveMasterKeyOfThisTab } from '../services/storage.ts';
import { apiOrigin } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import LoginPage from './login.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const t = fakeServerPerTest();
const email = 'ada@example.org';

beforeEach(() => {
  mockRouter = fakeRouter('/login');
});

async function submitEmail(text: string): Promise<UserEvent> {
  const user = userEvent.setup();
  renderInShell(<LoginPage />);
  const field = screen.getByRole('textbox', { name: 'E-mail address' });
  if (text) await user.type(field, text);
  await user.keyboard('{Enter}');
  return user;
}

test('the e-mail field is set up for autofill', () => {
  renderInShell(<LoginPage />);
  const field = screen.getByRole('textbox', { name: 'E-mail address' });
  expect(field).toHaveAttribute('type', 'email');
  expect(field).toHaveAttribute('autocomplete', 'email');
  expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/signup');
});

const domainMessage =
  'After the @ must come an internet domain, such as example.org: no IP address, no local name like localhost.';

test.each([
  ['', 'Enter your e-mail address.'],
  ['ada', 'Enter a valid e-mail address, such as name@example.org.'],
  ['ada @example.org', 'Enter a valid e-mail address, such as name@example.org.'],
  ['ada@localhost', domainMessage],
  ['ada@127.0.0.1', domainMessage],
  ['ada@printer.local', domainMessage],
])('"%s" is refused next to the field, without asking the server', async (text, message) => {
  await submitEmail(text);
  const field = screen.getByRole('textbox', { name: 'E-mail address' });
  expect(field).toHaveAccessibleDescription(message);
  expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(t.fake.requests).toEqual([]);
  expect(mockRouter.push).not.toHaveBeenCalled();
});

test('an account with a password goes to /credentials', async () => {
  await t.fake.addAccount(email, 'a password');
  await submitEmail('  Ada@Example.org');
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/credentials'));
  expect(savedUser()).toEqual({ email });
  // Still disabled while the page changes.
  expect(screen.getByRole('button', { name: 'Loading' })).toBeDisabled();
  expect(screen.getByRole('textbox', { name: 'E-mail address' })).toBeDisabled();
});

test('an account without SRP gets an e-mail code and goes to /verify', async () => {
  await t.fake.addAccount(email, 'a password', { srp: false });
  await submitEmail(email);
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/verify'));
  expect(t.fake.requestsTo('post', '/users/ott')[0]?.body).toMatchObject({ email, purpose: 'login' });
});

test('an unknown address: "not registered" next to the field, which editing clears', async () => {
  const user = await submitEmail(email);
  const field = screen.getByRole('textbox', { name: 'E-mail address' });
  await waitFor(() => expect(field).toHaveAccessibleDescription('There is no account with this e-mail address.'));
  expect(screen.getByRole('alert')).toBeEmptyDOMElement();
  expect(field).toBeEnabled();
  await user.type(field, 'x');
  expect(field).not.toHaveAccessibleDescription('There is no account with this e-mail address.');
  expect(mockRouter.push).not.toHaveBeenCalled();
});

test('an unfinished sign-up is said in the form alert', async () => {
  t.fake.addAccountWithoutKeys(email);
  await submitEmail(email);
  expect(
    await screen.findByText('The sign-up of this account was not finished. Please sign up again.'),
  ).toBeInTheDocument();
  expect(screen.getByRole('alert')).toHaveTextContent('The sign-up of this account was not finished.');
});

test.each([
  [
    'rate limited',
    () => HttpResponse.json({ error: 'Rate limit breached, try later' }, { status: 429 }),
    'Too many attempts. Please try again later.',
  ],
  ['unreachable', () => HttpResponse.error(), 'Could not reach the server. Please check your connection.'],
  ['failing', () => HttpResponse.json({}, { status: 500 }), 'The server ran into a problem. Please try again later.'],
])('a server that is %s: its message in the alert', async (_, resolver, message) => {
  t.msw.use(http.get(`${apiOrigin}/users/srp/attributes`, resolver));
  await submitEmail(email);
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
  expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
});

test('a signed-in visitor whose tab is locked goes to /credentials', async () => {
  await saveUser({ id: 1, email, token: 'token' });
  saveKeyAttributes((await t.fake.addAccount(email, 'a password')).keys.keyAttributes);
  renderInShell(<LoginPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/credentials'));
  expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
  expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
});

test('a signed-in and unlocked visitor goes to the app home', async () => {
  await saveUser({ id: 1, email, token: 'token' });
  const account = await t.fake.addAccount(email, 'a password');
  saveKeyAttributes(account.keys.keyAttributes);
  await saveMasterKeyOfThisTab(account.keys.masterKey);
  renderInShell(<LoginPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/auth'));
});
