import 'fake-indexeddb/auto';

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { setAppName } from '@ente/shared/app-name.ts';
import { reloadAt } from '@ente/shared/app/navigation.ts';
import { changeLocale, i18n } from '@ente/shared/i18n/i18n.ts';
import { logout } from '@ente/shared/logout.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { SettingsDrawer } from './SettingsDrawer.tsx';
import { saveTestAccount, testApiOrigin, testEmail, testPassword, testToken } from './testing/account-fixture.ts';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
jest.mock('@ente/shared/app/navigation.ts', () => ({ reloadAt: jest.fn() }));
jest.mock('@ente/shared/logout.ts', () => ({ logout: jest.fn(() => Promise.resolve()) }));

const server = setupServer();
let requests: { method: string; path: string; body: unknown; token: string | null }[] = [];

interface Profile {
  isEmailMFAEnabled?: boolean;
  canDisableEmailMFA?: boolean;
  isTwoFactorEnabled?: boolean;
}

function details(profile: Profile = {}) {
  return http.get(`${testApiOrigin}/users/details/v2`, ({ request }) => {
    requests.push({
      method: 'GET',
      path: pathOf(request),
      body: undefined,
      token: request.headers.get('X-Auth-Token'),
    });
    return HttpResponse.json(detailsBody(profile));
  });
}

/** The answer of GET /users/details/v2 as our server synthesises it (docs/protocol.md#account). */
function detailsBody(profile: Profile = {}) {
  return {
    email: testEmail,
    usage: 0,
    storageBonus: 0,
    subscription: {
      id: 1,
      userID: 7,
      productID: 'free',
      storage: 0,
      originalTransactionID: 'none',
      expiryTime: 0,
      paymentProvider: '',
      attributes: {},
      price: '',
      period: '',
    },
    profileData: {
      canDisableEmailMFA: true,
      isEmailMFAEnabled: false,
      isTwoFactorEnabled: false,
      passkeyCount: 0,
      ...profile,
    },
    bonusData: { storageBonuses: [] },
  };
}

function record(method: 'post' | 'put' | 'delete', path: string, answer: () => Response = () => HttpResponse.json({})) {
  return http[method](`${testApiOrigin}${path}`, async ({ request }) => {
    const text = await request.text();
    requests.push({
      method: method.toUpperCase(),
      path: pathOf(request),
      body: text ? JSON.parse(text) : undefined,
      token: request.headers.get('X-Auth-Token'),
    });
    return answer();
  });
}

function pathOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

const µs = (iso: string) => Date.parse(iso) * 1000;
const otherHash = 'mL8zGq1o3jT0R3b2f6wqzvG8Pn4x2Gw0c1dQ8e7a9bA=';
const sessions = [
  {
    token: otherHash,
    creationTime: µs('2025-01-01T10:00:00Z'),
    ip: '203.0.113.9',
    ua: 'Mozilla/5.0 (iPhone)',
    prettyUA: 'Safari on iOS',
    lastUsedTime: µs('2025-03-01T09:30:00Z'),
  },
  {
    token: testToken,
    creationTime: µs('2025-02-01T10:00:00Z'),
    ip: '198.51.100.4',
    ua: 'Mozilla/5.0 (X11; Linux x86_64)',
    prettyUA: 'Chrome on Linux',
    lastUsedTime: µs('2025-02-20T08:00:00Z'),
  },
];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  mockRouter = fakeRouter('/gallery');
  requests = [];
  setAppName('photos');
});
afterEach(async () => {
  jest.clearAllMocks();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
  await i18n.changeLanguage('en-US');
});
afterAll(() => server.close());

async function openSettings(profile?: Profile) {
  const account = await saveTestAccount();
  server.use(details(profile));
  const onClose = jest.fn();
  const user = userEvent.setup();
  renderInShell(<SettingsDrawer open onClose={onClose} />);
  const drawer = await screen.findByRole('dialog', { name: 'Settings' });
  // The switches follow the account once its details arrived.
  await waitFor(() => expect(within(drawer).getByRole('switch', { name: 'Two-factor authentication' })).toBeEnabled());
  return { account, drawer, onClose, user };
}

test('shows the e-mail address and leads to changing it and the password', async () => {
  const { drawer, onClose, user } = await openSettings();
  expect(within(drawer).getByText(testEmail)).toBeInTheDocument();
  expect(requests).toEqual([
    { method: 'GET', path: '/users/details/v2?memoryCount=false', body: undefined, token: testToken },
  ]);
  await user.click(within(drawer).getByRole('button', { name: 'Change e-mail' }));
  expect(onClose).toHaveBeenCalled();
  expect(mockRouter.push).toHaveBeenCalledWith('/change-email');
  await user.click(within(drawer).getByRole('button', { name: 'Change password' }));
  expect(mockRouter.push).toHaveBeenCalledWith('/change-password');
});

test('turning two-factor on goes to /two-factor/setup', async () => {
  const { drawer, onClose, user } = await openSettings();
  const toggle = within(drawer).getByRole('switch', { name: 'Two-factor authentication' });
  expect(toggle).not.toBeChecked();
  await user.click(toggle);
  expect(onClose).toHaveBeenCalled();
  expect(mockRouter.push).toHaveBeenCalledWith('/two-factor/setup');
});

test('turning two-factor off asks first, then turns it off', async () => {
  server.use(record('post', '/users/two-factor/disable', () => new HttpResponse(null, { status: 200 })));
  const { drawer, user } = await openSettings({ isTwoFactorEnabled: true });
  const toggle = within(drawer).getByRole('switch', { name: 'Two-factor authentication' });
  expect(toggle).toBeChecked();

  await user.click(toggle);
  let confirm = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication?' });
  await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: /Turn off/ })).not.toBeInTheDocument());
  expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
  expect(toggle).toBeChecked();

  await user.click(toggle);
  confirm = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication?' });
  await user.click(within(confirm).getByRole('button', { name: 'Turn off' }));
  await waitFor(() => expect(toggle).not.toBeChecked());
  expect(requests.filter((r) => r.method === 'POST')).toEqual([
    { method: 'POST', path: '/users/two-factor/disable', body: undefined, token: testToken },
  ]);
});

test('switches the e-mail code at sign-in on and off', async () => {
  server.use(record('put', '/users/email-mfa', () => new HttpResponse(null, { status: 200 })));
  const { drawer, user } = await openSettings();
  const toggle = within(drawer).getByRole('switch', { name: 'E-mail verification' });
  expect(toggle).not.toBeChecked();
  await user.click(toggle);
  await waitFor(() => expect(toggle).toBeChecked());
  await user.click(toggle);
  await waitFor(() => expect(toggle).not.toBeChecked());
  expect(requests.filter((r) => r.method === 'PUT')).toEqual([
    { method: 'PUT', path: '/users/email-mfa', body: { isEnabled: true }, token: testToken },
    { method: 'PUT', path: '/users/email-mfa', body: { isEnabled: false }, token: testToken },
  ]);
});

test('a refused e-mail MFA switch stays as it was and says why', async () => {
  server.use(record('put', '/users/email-mfa', () => HttpResponse.json({}, { status: 502 })));
  const { drawer, user } = await openSettings();
  const toggle = within(drawer).getByRole('switch', { name: 'E-mail verification' });
  await user.click(toggle);
  expect(await within(drawer).findByRole('alert')).toHaveTextContent(
    'The server ran into a problem. Please try again later.',
  );
  expect(toggle).not.toBeChecked();
});

test('e-mail MFA cannot be turned off without an SRP verifier', async () => {
  const { drawer } = await openSettings({ isEmailMFAEnabled: true, canDisableEmailMFA: false });
  const toggle = within(drawer).getByRole('switch', { name: 'E-mail verification' });
  expect(toggle).toBeChecked();
  expect(toggle).toBeDisabled();
});

test('details that cannot be loaded are said, and loaded again on request', async () => {
  await saveTestAccount();
  let answers = 0;
  server.use(
    http.get(`${testApiOrigin}/users/details/v2`, () => {
      answers += 1;
      return answers === 1 ? HttpResponse.error() : HttpResponse.json(detailsBody());
    }),
  );
  const user = userEvent.setup();
  renderInShell(<SettingsDrawer open onClose={jest.fn()} />);
  const drawer = await screen.findByRole('dialog', { name: 'Settings' });
  expect(await within(drawer).findByRole('alert')).toHaveTextContent(
    'Could not reach the server. Please check your connection.',
  );
  expect(within(drawer).getByRole('switch', { name: 'Two-factor authentication' })).toBeDisabled();
  // Until then the stored address shows.
  expect(within(drawer).getByText(testEmail)).toBeInTheDocument();
  server.use(details({ isTwoFactorEnabled: true }));
  await user.click(within(drawer).getByRole('button', { name: 'Try again' }));
  await waitFor(() => expect(within(drawer).getByRole('switch', { name: 'Two-factor authentication' })).toBeChecked());
  expect(within(drawer).queryByRole('alert')).not.toBeInTheDocument();
});

describe('the recovery key', () => {
  test('is shown as 24 words after the right password, not after a wrong one', async () => {
    const { account, drawer, user } = await openSettings();
    await user.click(within(drawer).getByRole('button', { name: 'Recovery key' }));
    expect(await within(drawer).findByRole('heading', { level: 2, name: 'Recovery key' })).toBeInTheDocument();
    const field = screen.getByLabelText('Password');
    await user.type(field, 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Show recovery key' }));
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription('Incorrect password, or there is no account with this e-mail address.'),
    );
    expect(screen.queryByRole('list', { name: 'Your recovery key' })).not.toBeInTheDocument();

    await user.clear(field);
    await user.type(field, `${testPassword}{Enter}`);
    const list = await screen.findByRole('list', { name: 'Your recovery key' });
    const words = within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent.replace(/^\d+\./, ''));
    if (!account.recoveryKey) throw new Error('no recovery key');
    expect(words).toHaveLength(24);
    expect(words.join(' ')).toBe(await cryptoAPI.recoveryKeyToWords(account.recoveryKey));
    // No request: the password is checked on this device only.
    expect(requests.map((r) => r.path)).toEqual(['/users/details/v2?memoryCount=false']);

    await user.click(within(drawer).getByRole('button', { name: 'Back' }));
    expect(await within(drawer).findByRole('heading', { level: 2, name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBe(drawer);
    // Run alone, this test is the first to load the crypto code, which takes seconds.
  }, 20000);
});

describe('the active sessions', () => {
  test('lists device, IP and last use, this one marked, and revokes another after a confirmation', async () => {
    server.use(
      http.get(`${testApiOrigin}/users/sessions`, () => HttpResponse.json({ sessions })),
      record('delete', '/users/session'),
    );
    const { drawer, user } = await openSettings();
    await user.click(within(drawer).getByRole('button', { name: 'Active sessions' }));
    const list = await screen.findByRole('list', { name: 'Active sessions' });
    const items = within(list).getAllByRole('listitem');
    // This browser's session first.
    expect(items.map((item) => within(item).getByText(/on /).textContent)).toEqual([
      'Chrome on Linux',
      'Safari on iOS',
    ]);
    expect(within(items[0] as HTMLElement).getByText('This device')).toBeInTheDocument();
    expect(within(items[0] as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
    const lastUse = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2025-03-01T09:30:00Z'),
    );
    expect(within(items[1] as HTMLElement).getByText(`203.0.113.9 · last used ${lastUse}`)).toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: 'Sign out Safari on iOS' }));
    const confirm = await screen.findByRole('dialog', { name: 'Sign out this session?' });
    expect(confirm).toHaveTextContent('Safari on iOS (203.0.113.9) will be signed out of your account.');
    await user.click(within(confirm).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(requests.filter((r) => r.method === 'DELETE')).toEqual([
      {
        method: 'DELETE',
        path: `/users/session?token=${encodeURIComponent(otherHash)}`,
        body: undefined,
        token: testToken,
      },
    ]);
  });

  test('a list that cannot be loaded says why', async () => {
    server.use(http.get(`${testApiOrigin}/users/sessions`, () => HttpResponse.json({}, { status: 500 })));
    const { drawer, user } = await openSettings();
    await user.click(within(drawer).getByRole('button', { name: 'Active sessions' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The server ran into a problem. Please try again later.',
    );
  });
});

describe('passkeys', () => {
  const accountsUrl = 'https://accounts.example.org';
  const accountsToken = 'acc1.7.1795562097205000.Tg95LCF_4ZqPNSkbRNf5wr_qnwMZtoKKAZGg--k4y6g';

  function passkeyRoutes({ recoveryOn = false, tokenStatus = 200 } = {}) {
    const get = (path: string, answer: () => Response) =>
      http.get(`${testApiOrigin}${path}`, ({ request }) => {
        requests.push({
          method: 'GET',
          path: pathOf(request),
          body: undefined,
          token: request.headers.get('X-Auth-Token'),
        });
        return answer();
      });
    server.use(
      get('/users/two-factor/recovery-status', () =>
        HttpResponse.json({ allowAdminReset: true, isPasskeyRecoveryEnabled: recoveryOn }),
      ),
      record('post', '/users/two-factor/passkeys/configure-recovery'),
      get('/users/accounts-token', () =>
        tokenStatus === 200
          ? HttpResponse.json({ accountsToken, accountsUrl })
          : HttpResponse.json({}, { status: tokenStatus }),
      ),
    );
  }

  /** window.open's tab, as the drawer uses it: opened blank at the click, then sent on (or closed). */
  function fakeTab() {
    const tab = { opener: window as unknown, location: { href: 'about:blank' }, close: jest.fn() };
    const open = jest.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    return { tab, open };
  }

  afterEach(() => {
    jest.restoreAllMocks();
  });

  test('passkey recovery is set up under the recovery key first; the accounts app opens with the token in the fragment', async () => {
    const { account, drawer, user } = await openSettings();
    passkeyRoutes();
    const { tab, open } = fakeTab();
    await user.click(within(drawer).getByRole('button', { name: 'Passkeys' }));
    await waitFor(() => expect(tab.location.href).toBe(`${accountsUrl}/passkeys#token=${accountsToken}`));
    // Opened at the click (no pop-up blocker), with no way back to this page.
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(requests.map((r) => `${r.method} ${r.path}`).slice(1)).toEqual([
      'GET /users/two-factor/recovery-status',
      'POST /users/two-factor/passkeys/configure-recovery',
      'GET /users/accounts-token',
    ]);
    const configured = requests[2]?.body as { secret: string; userSecretCipher: string; userSecretNonce: string };
    expect(Buffer.from(configured.secret, 'base64')).toHaveLength(32);
    // The recovery key alone opens the copy the account keeps.
    if (!account.recoveryKey) throw new Error('no recovery key');
    expect(
      await cryptoAPI.decryptBox(configured.userSecretCipher, configured.userSecretNonce, account.recoveryKey),
    ).toBe(configured.secret);
    expect(requests.every((r) => r.token === testToken)).toBe(true);
  });

  test('passkey recovery already on: not set up again', async () => {
    const { drawer, user } = await openSettings();
    passkeyRoutes({ recoveryOn: true });
    const { tab } = fakeTab();
    await user.click(within(drawer).getByRole('button', { name: 'Passkeys' }));
    await waitFor(() => expect(tab.location.href).toBe(`${accountsUrl}/passkeys#token=${accountsToken}`));
    expect(requests.filter((r) => r.path.includes('configure-recovery'))).toEqual([]);
  });

  test('a token that cannot be had closes the tab and says why', async () => {
    const { drawer, user } = await openSettings();
    passkeyRoutes({ recoveryOn: true, tokenStatus: 500 });
    const { tab } = fakeTab();
    await user.click(within(drawer).getByRole('button', { name: 'Passkeys' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The server ran into a problem. Please try again later.',
    );
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.href).toBe('about:blank');
  });
});

test('language and theme apply at once and are kept', async () => {
  const { drawer, user } = await openSettings();
  await user.click(within(drawer).getByRole('button', { name: 'Light' }));
  expect(localStorage.getItem('theme')).toBe('"light"');
  await user.click(within(drawer).getByRole('combobox', { name: 'Language' }));
  await user.click(await screen.findByRole('option', { name: 'Deutsch' }));
  expect(await screen.findByRole('dialog', { name: 'Einstellungen' })).toBeInTheDocument();
  expect(localStorage.getItem('locale')).toBe('"de-DE"');
  await act(() => changeLocale('en-US'));
});

test('logs out and loads / afresh', async () => {
  const { drawer, onClose, user } = await openSettings();
  await user.click(within(drawer).getByRole('button', { name: 'Log out' }));
  expect(onClose).toHaveBeenCalled();
  await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/'));
  expect(logout).toHaveBeenCalledTimes(1);
});
