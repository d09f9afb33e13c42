// An axe scan of every sign-in page of packages/accounts (served by the auth app), in the dark and the
// light theme, in the state where the page shows its form: no serious or critical violation. Each
// state is one a real flow leaves behind (docs/protocol.md#browser-storage), set up over the API: an
// e-mail entered, SRP attributes fetched, a two-factor session open, a session signed in.
import { expect, test, type Page } from '@playwright/test';

import { api, createAccount, enableTwoFactor, signInBrowser, srpLogin, type ApiAccount } from '../api.ts';
import { appUrl, seriousViolations, waitUntilSettled, writeBrowserStorage } from '../stack.ts';

interface SignInPage {
  path: string;
  /** The h1 the page shows in the state set up. */
  heading: string;
  /** Leaves the storage of a fresh context in the state the page needs. */
  setUp: (page: Page, accounts: Accounts) => Promise<void>;
}

interface Accounts {
  plain: { account: ApiAccount; token: string };
  twoFactor: { account: ApiAccount; token: string };
}

const signedOut = () => Promise.resolve();

/** After /login with an address (and before the code or the password). */
const emailEntered = (page: Page, { plain }: Accounts) =>
  writeBrowserStorage(page, 'auth', { local: { user: { email: plain.account.email } } });

const pages: SignInPage[] = [
  { path: '/login', heading: 'Sign in', setUp: signedOut },
  { path: '/signup', heading: 'Create an account', setUp: signedOut },
  { path: '/verify', heading: 'Verify your e-mail', setUp: emailEntered },
  {
    path: '/credentials',
    heading: 'Enter your password',
    setUp: async (page, { plain }) => {
      const { attributes } = await api<{ attributes: unknown }>('auth', 'GET', '/users/srp/attributes', {
        query: { email: plain.account.email },
      });
      await writeBrowserStorage(page, 'auth', {
        local: { user: { email: plain.account.email }, srpAttributes: attributes },
      });
    },
  },
  {
    path: '/generate',
    heading: 'Save your recovery key',
    setUp: async (page, { plain }) => {
      await signInBrowser(page, 'auth', plain.account, plain.token);
      await writeBrowserStorage(page, 'auth', { local: { justSignedUp: { status: true } } });
    },
  },
  {
    path: '/recover',
    heading: 'Recover your account',
    setUp: (page, { plain }) => signInBrowser(page, 'auth', plain.account, plain.token),
  },
  {
    path: '/two-factor/verify',
    heading: 'Two-factor authentication',
    setUp: (page, { twoFactor }) => twoFactorPending(page, twoFactor.account),
  },
  {
    path: '/two-factor/recover',
    heading: 'Recover two-factor authentication',
    setUp: (page, { twoFactor }) => twoFactorPending(page, twoFactor.account),
  },
  {
    path: '/two-factor/setup',
    heading: 'Set up two-factor authentication',
    setUp: (page, { plain }) => signInBrowser(page, 'auth', plain.account, plain.token),
  },
  {
    path: '/change-password',
    heading: 'Change password',
    setUp: (page, { plain }) => signInBrowser(page, 'auth', plain.account, plain.token),
  },
  {
    path: '/change-email',
    heading: 'Change e-mail',
    setUp: (page, { plain }) => signInBrowser(page, 'auth', plain.account, plain.token),
  },
];

/** After the password of an account with two-factor on: the second step is open. */
async function twoFactorPending(page: Page, account: ApiAccount) {
  const { twoFactorSessionID } = await srpLogin(account, 'auth');
  expect(twoFactorSessionID).not.toBe('');
  await writeBrowserStorage(page, 'auth', {
    local: { user: { email: account.email, isTwoFactorEnabled: true, twoFactorSessionID } },
  });
}

let accounts: Accounts | undefined;

test.beforeAll(async () => {
  const plain = await createAccount();
  const twoFactor = await createAccount();
  await enableTwoFactor(twoFactor.account, 'auth', twoFactor.token);
  accounts = { plain, twoFactor };
});

for (const entry of pages) {
  test(`sign-in page ${entry.path} has no serious or critical axe violation in either theme`, async ({ page }) => {
    if (!accounts) throw new Error('the accounts were not made');
    const found: Record<string, unknown[]> = {};
    for (const theme of ['dark', 'light']) {
      await writeBrowserStorage(page, 'auth', { local: { theme } });
      await entry.setUp(page, accounts);
      await page.goto(`${appUrl('auth')}${entry.path}`);
      await waitUntilSettled(page);
      await expect(page.getByRole('heading', { level: 1, name: entry.heading })).toBeVisible();
      expect(new URL(page.url()).pathname).toBe(entry.path);
      found[theme] = await seriousViolations(page);
    }
    expect(found).toEqual({ dark: [], light: [] });
  });
}
