// /two-factor/verify against the fake server: the code submits itself at six digits, each failure is
// said where it belongs, and a two-factor session that is over signs out.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { leaveFor, reloadAt } from '@ente/shared/app/navigation.ts';
import { savedUser, saveUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { verifyEmail } from '../../services/verify.ts';
import { apiOrigin, emailCode, totpCode } from '../../testing/fake-server.ts';
import { fakeServerPerTest } from '../../testing/flow-test-setup.ts';
import TwoFactorVerifyPage from './verify.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
jest.mock('@ente/shared/app/navigation.ts', () => ({ leaveFor: jest.fn(), reloadAt: jest.fn() }));

const t = fakeServerPerTest();
const email = 'ada@example.org';
const password = 'correct horse';

beforeEach(async () => {
  mockRouter = fakeRouter('/two-factor/verify');
  jest.mocked(reloadAt).mockClear();
  jest.mocked(leaveFor).mockClear();
  await t.fake.addAccount(email, password, { twoFactor: true, srp: false });
  // Signed in by e-mail code (no SRP arithmetic, which is slow in tests) up to the second factor.
  await saveUser({ email });
  expect(await verifyEmail(emailCode)).toBe('/two-factor/verify');
});

const codeField = () => screen.getByRole('textbox', { name: '6-digit code' });

test('the sixth digit submits; success goes to /credentials', async () => {
  renderInShell(<TwoFactorVerifyPage />);
  expect(codeField()).toHaveFocus();
  expect(screen.getByText('Enter the 6-digit code shown in your authenticator app.')).toBeInTheDocument();
  await userEvent.setup().type(codeField(), totpCode);
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/credentials'));
  expect(t.fake.requestsTo('post', '/users/two-factor/verify')[0]?.body).toMatchObject({ code: totpCode });
});

test('a pasted code with a space submits too', async () => {
  renderInShell(<TwoFactorVerifyPage />);
  const user = userEvent.setup();
  await user.click(codeField());
  await user.paste(`${totpCode.slice(0, 3)} ${totpCode.slice(3)}`);
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/credentials'));
});

test('a wrong code: said next to the field, which is emptied for the next try', async () => {
  renderInShell(<TwoFactorVerifyPage />);
  await userEvent.setup().type(codeField(), '000000');
  await waitFor(() => expect(codeField()).toHaveAccessibleDescription('Incorrect code'));
  expect(codeField()).toHaveValue('');
  expect(codeField()).toHaveFocus();
});

test('too many wrong codes: said next to the field', async () => {
  t.msw.use(http.post(`${apiOrigin}/users/two-factor/verify`, () => HttpResponse.json({}, { status: 429 })));
  renderInShell(<TwoFactorVerifyPage />);
  await userEvent.setup().type(codeField(), totpCode);
  await waitFor(() =>
    expect(codeField()).toHaveAccessibleDescription('Too many incorrect attempts. Please try again later.'),
  );
});

test('a two-factor session that is over: signed out, told, and sent to /login', async () => {
  t.msw.use(http.post(`${apiOrigin}/users/two-factor/verify`, () => HttpResponse.json({}, { status: 404 })));
  renderInShell(<TwoFactorVerifyPage />);
  const user = userEvent.setup();
  await user.type(codeField(), totpCode);
  const dialog = await screen.findByRole('dialog');
  expect(dialog).toHaveTextContent('Your session has expired. Please sign in again.');
  expect(savedUser()).toBeUndefined();
  await user.click(screen.getByRole('button', { name: 'OK' }));
  expect(reloadAt).toHaveBeenCalledWith('/login');
});

test('"lost your device?" leads to /two-factor/recover', async () => {
  renderInShell(<TwoFactorVerifyPage />);
  await userEvent.setup().click(screen.getByRole('link', { name: 'Lost your device?' }));
  expect(mockRouter.push).toHaveBeenCalledWith('/two-factor/recover');
});

test('without a two-factor session, goes to /login', async () => {
  localStorage.clear();
  renderInShell(<TwoFactorVerifyPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
});

describe('an account with both an authenticator app and a passkey', () => {
  beforeEach(async () => {
    await t.fake.addAccount('both@example.org', password, {
      twoFactor: true,
      twoFactorV2: true,
      passkey: true,
      srp: false,
    });
    await saveUser({ email: 'both@example.org' });
    expect(await verifyEmail(emailCode)).toBe('/two-factor/verify');
  });

  const choice = () => screen.findByRole('dialog', { name: 'Choose a second factor' });

  test("is asked on arrival; the passkey leads to the accounts app's check", async () => {
    renderInShell(<TwoFactorVerifyPage />);
    const user = userEvent.setup();
    await user.click(within(await choice()).getByRole('button', { name: 'Passkey' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(1));
    const url = new URL(jest.mocked(leaveFor).mock.calls[0]?.[0] ?? '');
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.ente.com/passkeys/verify');
    expect(url.searchParams.get('passkeySessionID')).toBe(savedUser()?.passkeySessionID);
    expect(t.fake.requestsTo('post', '/users/two-factor/verify')).toEqual([]);
  });

  async function chooseCode() {
    renderInShell(<TwoFactorVerifyPage />);
    const user = userEvent.setup();
    await user.click(within(await choice()).getByRole('button', { name: 'Authenticator app code' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    return user;
  }

  test('the code chosen: verified as usual', async () => {
    const user = await chooseCode();
    await user.type(codeField(), totpCode);
    await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/credentials'));
    expect(leaveFor).not.toHaveBeenCalled();
  });

  test('the code chosen, the passkey is still a link away', async () => {
    const user = await chooseCode();
    expect(leaveFor).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(1));
    expect(jest.mocked(leaveFor).mock.calls[0]?.[0]).toMatch(/^https:\/\/accounts\.ente\.com\/passkeys\/verify\?/);
  });
});

test('an authenticator app alone: no choice, no passkey link', async () => {
  renderInShell(<TwoFactorVerifyPage />);
  expect(codeField()).toBeInTheDocument();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Use a passkey instead' })).not.toBeInTheDocument();
});
