// /verify against the fake server: the code submits itself at six digits (typed or pasted), each
// failure is said next to the field, a new code may be asked for after the cool-down, and "change
// e-mail address" goes back where the address came from.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { leaveFor } from '@ente/shared/app/navigation.ts';
import { changeLocale } from '@ente/shared/i18n/i18n.ts';
import { saveJustSignedUp } from '@ente/shared/storage/account-storage.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { apiOrigin, emailCode } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import VerifyPage, { resendCoolDownSeconds } from './verify.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
jest.mock('@ente/shared/app/navigation.ts', () => ({ leaveFor: jest.fn(), reloadAt: jest.fn() }));

const t = fakeServerPerTest();
const email = 'ada@example.org';

beforeEach(async () => {
  mockRouter = fakeRouter('/verify');
  await t.fake.addAccount(email, 'a password', { srp: false });
  await saveUser({ email });
});

afterEach(() => {
  jest.useRealTimers();
});

const codeField = () => screen.getByRole('textbox', { name: '6-digit code' });

test('says where the code went, and focuses the code field', async () => {
  renderInShell(<VerifyPage />);
  expect(
    await screen.findByText(`We sent a 6-digit code to ${email}. If it does not arrive, check your spam folder.`),
  ).toBeInTheDocument();
  expect(codeField()).toHaveFocus();
  expect(mockRouter.replace).not.toHaveBeenCalled();
});

test('after a login it says a code goes only to an address with an account; not during a sign-up', async () => {
  const hint = 'A code goes only to an address that has an account. No code? Check the address, or create an account.';
  const { unmount } = renderInShell(<VerifyPage />);
  expect(await screen.findByText(hint)).toBeInTheDocument();
  unmount();
  saveJustSignedUp();
  renderInShell(<VerifyPage />);
  expect(screen.getByRole('link', { name: 'Change e-mail address' })).toHaveAttribute('href', '/signup');
  expect(screen.queryByText(hint)).not.toBeInTheDocument();
});

test('without an address in progress, goes to /login', async () => {
  localStorage.clear();
  renderInShell(<VerifyPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
});

test('the sixth typed digit submits the code, without pressing anything', async () => {
  const user = userEvent.setup();
  renderInShell(<VerifyPage />);
  await user.type(codeField(), emailCode);
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/credentials'));
  expect(t.fake.requestsTo('post', '/users/verify-email')).toHaveLength(1);
  expect(t.fake.requestsTo('post', '/users/verify-email')[0]?.body).toMatchObject({ email, ott: emailCode });
  expect(codeField()).toBeDisabled();
});

test('a pasted "123 456" submits as 123456', async () => {
  const user = userEvent.setup();
  renderInShell(<VerifyPage />);
  await user.click(codeField());
  await user.paste('123 456');
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/credentials'));
  expect(t.fake.requestsTo('post', '/users/verify-email')[0]?.body).toMatchObject({ ott: '123456' });
});

test('fewer than six digits and Enter: asks for all six, without asking the server', async () => {
  const user = userEvent.setup();
  renderInShell(<VerifyPage />);
  await user.type(codeField(), '123{Enter}');
  expect(codeField()).toHaveAccessibleDescription('Enter all 6 digits of the code.');
  expect(t.fake.requestsTo('post', '/users/verify-email')).toEqual([]);
});

test('a wrong code: said next to the field, which is emptied and focused for the next try', async () => {
  const user = userEvent.setup();
  renderInShell(<VerifyPage />);
  await user.type(codeField(), '111111');
  await waitFor(() => expect(codeField()).toHaveAccessibleDescription('Incorrect code'));
  expect(codeField()).toHaveValue('');
  expect(codeField()).toBeEnabled();
  expect(codeField()).toHaveFocus();
  expect(mockRouter.push).not.toHaveBeenCalled();
  // Typing again clears the message.
  await user.type(codeField(), '1');
  expect(codeField()).not.toHaveAccessibleDescription('Incorrect code');
});

test.each([
  ['an expired code (410)', 410, 'This code has expired. Please request a new one.'],
  ['too many wrong attempts (429)', 429, 'Too many incorrect attempts. Please try again later.'],
])('%s: said next to the field', async (_, status, message) => {
  t.msw.use(http.post(`${apiOrigin}/users/verify-email`, () => HttpResponse.json({}, { status })));
  const user = userEvent.setup();
  renderInShell(<VerifyPage />);
  await user.type(codeField(), emailCode);
  await waitFor(() => expect(codeField()).toHaveAccessibleDescription(message));
});

test('a network failure is said in the alert', async () => {
  t.msw.use(http.post(`${apiOrigin}/users/verify-email`, () => HttpResponse.error()));
  const user = userEvent.setup();
  renderInShell(<VerifyPage />);
  await user.type(codeField(), emailCode);
  await waitFor(() =>
    expect(screen.getByRole('alert')).toHaveTextContent('Could not reach the server. Please check your connection.'),
  );
});

test('an account with a passkey goes on to the accounts app, the page staying busy', async () => {
  await t.fake.addAccount('pass@example.org', 'a password', { srp: false, passkey: true });
  await saveUser({ email: 'pass@example.org' });
  const user = userEvent.setup();
  renderInShell(<VerifyPage />);
  await user.type(codeField(), emailCode);
  await waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(1));
  expect(jest.mocked(leaveFor).mock.calls[0]?.[0]).toMatch(
    /^https:\/\/accounts\.ente\.com\/passkeys\/verify\?clientPackage=io\.ente\.[a-z]+\.web&passkeySessionID=/,
  );
  expect(mockRouter.push).not.toHaveBeenCalled();
  expect(codeField()).toBeDisabled();
});

test('the messages follow the language: a wrong code in French', async () => {
  await changeLocale('fr-FR');
  try {
    const user = userEvent.setup();
    renderInShell(<VerifyPage />);
    const field = screen.getByRole('textbox', { name: 'Code à 6 chiffres' });
    await user.type(field, '111111');
    await waitFor(() => expect(field).toHaveAccessibleDescription('Code incorrect'));
    expect(screen.getByRole('heading', { level: 1, name: 'Vérifiez votre e-mail' })).toBeInTheDocument();
  } finally {
    await changeLocale('en-US');
  }
});

test(`a new code may be asked for ${resendCoolDownSeconds} s after the last one`, async () => {
  jest.useFakeTimers();
  renderInShell(<VerifyPage />);
  const waiting = screen.getByRole('button', { name: 'Resend code in 30 s' });
  expect(waiting).toBeDisabled();
  act(() => jest.advanceTimersByTime(10_000));
  expect(screen.getByRole('button', { name: 'Resend code in 20 s' })).toBeDisabled();
  act(() => jest.advanceTimersByTime(20_000));
  const resend = screen.getByRole('button', { name: 'Resend code' });
  expect(resend).toBeEnabled();
  expect(t.fake.requestsTo('post', '/users/ott')).toEqual([]);

  jest.useRealTimers();
  await userEvent.setup().click(resend);
  expect(await screen.findByText('We sent a new code.')).toBeInTheDocument();
  // A code with no purpose (docs/protocol.md#e-mail-codes), then a new cool-down.
  expect(t.fake.requestsTo('post', '/users/ott').map((request) => request.body)).toEqual([{ email, client: 'totp' }]);
  expect(screen.getByRole('button', { name: /^Resend code in \d+ s$/ })).toBeDisabled();
});

test('a failed resend is said in the alert, and the button stays available', async () => {
  jest.useFakeTimers();
  renderInShell(<VerifyPage />);
  act(() => jest.advanceTimersByTime(resendCoolDownSeconds * 1000));
  jest.useRealTimers();
  t.msw.use(http.post(`${apiOrigin}/users/ott`, () => HttpResponse.json({}, { status: 429 })));
  await userEvent.setup().click(screen.getByRole('button', { name: 'Resend code' }));
  await waitFor(() =>
    expect(screen.getByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.'),
  );
  expect(screen.getByRole('button', { name: 'Resend code' })).toBeEnabled();
});

test('"change e-mail address" goes to /login, or to /signup during a sign-up', async () => {
  const { unmount } = renderInShell(<VerifyPage />);
  expect(screen.getByRole('link', { name: 'Change e-mail address' })).toHaveAttribute('href', '/login');
  unmount();
  saveJustSignedUp();
  renderInShell(<VerifyPage />);
  const link = screen.getByRole('link', { name: 'Change e-mail address' });
  expect(link).toHaveAttribute('href', '/signup');
  await userEvent.setup().click(link);
  expect(mockRouter.push).toHaveBeenCalledWith('/signup');
});
