// Passkeys through the pages, with Chromium's virtual authenticator against the real server
// (docs/protocol.md#passkeys): a passkey added at the accounts app from the auth app's settings and
// renamed; sign-ins at auth and at photos with it as the second factor, through the accounts app's
// check; with both factors on, the choice; the recovery words instead of a passkey that is not at hand;
// the last passkey deleted, after which a sign-in asks for no second factor. The management token travels
// in the address's fragment and stays in the page's memory only. An axe scan of /passkeys
// and /passkeys/verify in the states a person meets.
import { expect, test, type BrowserContext, type Page, type Request } from '@playwright/test';

import {
  api,
  configurePasskeyRecovery,
  createAccount,
  enableTwoFactor,
  signInBrowser,
  srpLogin,
  type ApiAccount,
} from '../api.ts';
import { SecretsCollector } from '../secrets.ts';
import { appUrl, backgroundLuminance, seriousViolations, type AppName } from '../stack.ts';
import { enterEmail, enterPassword, expectHome, field, logOut, openLogin, openSettings, signIn } from '../ui.ts';
import { VirtualAuthenticator, type VirtualCredential } from '../webauthn.ts';

test('a passkey from the settings signs in at auth and photos; once deleted, no second factor', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(240_000);
  const { account, token } = await createAccount();
  const secrets = new SecretsCollector(testInfo).add('emails', account.email);
  await signInBrowser(page, 'auth', account, token, '/auth');

  // Settings → Passkeys opens the accounts app in a new tab, the token already out of its address.
  let manage = await openPasskeysFromSettings(page, context);
  const laptop = await VirtualAuthenticator.attach(manage);
  await addPasskey(manage, 'Work laptop');
  const list = passkeyList(manage);
  await list.getByRole('button', { name: 'Rename Work laptop' }).click();
  const rename = manage.getByRole('dialog', { name: 'Rename passkey' });
  await rename.getByRole('textbox', { name: 'Passkey name' }).fill('YubiKey 5');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toBeHidden();
  await expect(list.getByRole('listitem')).toHaveText([/^YubiKey 5\s*Added /]);
  expect(await seriousViolations(manage)).toEqual([]);
  const [credential] = await laptop.credentials();
  if (!credential) throw new Error('the authenticator holds no passkey');
  expect(credential.rpId).toBe('localhost');
  // The token lived in the page's memory only: a reload (not signed in at the accounts app) asks to sign in.
  await manage.reload();
  await expect(manage).toHaveURL(`${appUrl('accounts')}/login`);
  await manage.close();
  await closeSettings(page);

  // Signed out, the password leads to the accounts app's check and back, at auth and then at photos.
  await logOut(page);
  const phone = await VirtualAuthenticator.attach(page);
  await phone.add(credential);
  for (const app of ['auth', 'photos'] as const) {
    const signed = phone.nextAssertion();
    await signInWithPasskey(page, app, account);
    await signed;
    await expectHome(page, app, account.email);
  }
  await secrets.fromSignedInPage(page, account.password);
  await secrets.save();

  // The list says when it was last used. Deleting it turns the passkey step off.
  await page.goto(`${appUrl('auth')}/auth`);
  manage = await openPasskeysFromSettings(page, context);
  const row = passkeyList(manage).getByRole('listitem');
  await expect(row).toContainText('Last used');
  await row.getByRole('button', { name: 'Delete YubiKey 5' }).click();
  const confirm = manage.getByRole('dialog', { name: 'Delete passkey?' });
  await expect(confirm).toContainText('It is your last passkey');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(manage.getByText('No passkeys yet')).toBeVisible();
  await manage.close();
  await closeSettings(page);
  await logOut(page);
  await signIn(page, 'auth', account);
});

test('both factors on: the choice; a passkey not at hand is got around with the recovery words', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const { account, token } = await createAccount();
  const totp = await enableTwoFactor(account, 'auth', token);
  const credential = await registerPasskey(context, account, token);

  // At auth the person picks the passkey.
  const keys = await VirtualAuthenticator.attach(page);
  await keys.add(credential);
  await startSignIn(page, 'auth', account);
  await chooseSecondFactor(page, 'Passkey');
  await expectHome(page, 'auth', account.email);

  // At photos, on a device without the passkey: the check fails and offers the recovery key.
  await keys.clear();
  await startSignIn(page, 'photos', account);
  await chooseSecondFactor(page, 'Passkey');
  await expect(page).toHaveURL(new RegExp(`^${appUrl('accounts')}/passkeys/verify\\?`));
  await expect(page.getByRole('alert').filter({ hasText: 'The passkey check did not succeed.' })).toBeVisible({
    timeout: 30_000,
  });
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Sign in with the recovery key' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in without your passkey' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await field.recoveryKey(page).fill(account.recoveryWords);
  await page.getByRole('button', { name: 'Recover' }).click();
  await expectHome(page, 'photos', account.email);

  // The passkey and the authenticator app both stay on; a TOTP code is still a way in.
  expect(await api('auth', 'GET', '/users/two-factor/status', { token })).toEqual({ status: true });
  await logOut(page);
  await startSignIn(page, 'photos', account);
  await chooseSecondFactor(page, 'Authenticator app code');
  await field.code(page).fill(await totp.nextCode());
  await expectHome(page, 'photos', account.email);
});

test('the passkey pages have no serious or critical axe violation in either theme', async ({ page, context }) => {
  test.setTimeout(120_000);
  const { account, token } = await createAccount();
  await registerPasskey(context, account, token);
  // An authenticator without the passkey: the check fails at once and offers its ways on.
  await VirtualAuthenticator.attach(page);
  const found: Record<string, Record<string, unknown[]>> = {};
  for (const theme of ['dark', 'light']) {
    await page.addInitScript((mode) => localStorage.setItem('theme', JSON.stringify(mode)), theme);
    const scans: Record<string, unknown[]> = {};
    const { accountsToken } = await api<{ accountsToken: string }>('auth', 'GET', '/users/accounts-token', { token });
    // In the query, as Ente's own apps send it (ours use the fragment): read all the same, and cleared.
    await page.goto(`${appUrl('accounts')}/passkeys?token=${encodeURIComponent(accountsToken)}`);
    await expect(page).toHaveURL(`${appUrl('accounts')}/passkeys`);
    await expect(passkeyList(page).getByRole('listitem')).toHaveCount(1);
    const luminance = await backgroundLuminance(page);
    expect(theme === 'light' ? luminance > 0.5 : luminance < 0.2, `${theme} background`).toBe(true);
    scans['/passkeys'] = await seriousViolations(page);
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await expect(page.getByRole('dialog', { name: 'Add a passkey' })).toBeVisible();
    scans['/passkeys, naming'] = await seriousViolations(page);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await passkeyList(page).getByRole('button', { name: 'Delete Phone' }).click();
    scans['/passkeys, deleting'] = await seriousViolations(page);

    const { passkeySessionID } = await srpLogin(account, 'auth');
    const query = new URLSearchParams({
      clientPackage: 'io.ente.auth.web',
      passkeySessionID,
      redirect: `${appUrl('auth')}/passkeys/finish`,
      recover: `${appUrl('auth')}/passkeys/recover`,
    });
    await page.goto(`${appUrl('accounts')}/passkeys/verify?${query.toString()}`);
    await expect(page.getByRole('button', { name: 'Sign in with the recovery key' })).toBeVisible({ timeout: 30_000 });
    scans['/passkeys/verify, failed'] = await seriousViolations(page);
    query.set('redirect', 'https://evil.example/passkeys/finish');
    await page.goto(`${appUrl('accounts')}/passkeys/verify?${query.toString()}`);
    await expect(page.getByText('This sign-in link is invalid.')).toBeVisible();
    scans['/passkeys/verify, invalid link'] = await seriousViolations(page);
    found[theme] = scans;
  }
  const clean = {
    '/passkeys': [],
    '/passkeys, naming': [],
    '/passkeys, deleting': [],
    '/passkeys/verify, failed': [],
    '/passkeys/verify, invalid link': [],
  };
  expect(found).toEqual({ dark: clean, light: clean });
});

/**
 * Settings → Passkeys; resolves with the accounts app's tab once it lists the passkeys. The token travels in
 * the fragment: no request carries it, and the tab keeps it neither in its address nor in its storage.
 */
async function openPasskeysFromSettings(page: Page, context: BrowserContext): Promise<Page> {
  const settings = await openSettings(page);
  const opened = context.waitForEvent('page');
  const requested: string[] = [];
  const onRequest = (request: Request) => requested.push(request.url());
  context.on('request', onRequest);
  await settings.getByRole('button', { name: 'Passkeys' }).click();
  const tab = await opened;
  await expect(tab).toHaveURL(`${appUrl('accounts')}/passkeys`, { timeout: 30_000 });
  await expect(tab.getByRole('heading', { level: 2, name: 'Your passkeys' })).toBeVisible();
  context.off('request', onRequest);
  expect(requested.filter((url) => url.startsWith(`${appUrl('accounts')}/passkeys`))).toEqual([
    `${appUrl('accounts')}/passkeys`,
  ]);
  expect(requested.filter((url) => url.includes('acc1.'))).toEqual([]);
  const kept = await tab.evaluate(() => {
    const entries = (storage: Storage) =>
      Array.from({ length: storage.length }, (_, index) => {
        const key = storage.key(index) ?? '';
        return [key, storage.getItem(key)];
      });
    return JSON.stringify([entries(sessionStorage), entries(localStorage), history.state]);
  });
  expect(kept).not.toContain('acc1.');
  return tab;
}

/** The settings stay open behind the accounts app's tab. */
async function closeSettings(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeHidden();
}

const passkeyList = (page: Page) => page.getByRole('list', { name: 'Your passkeys' });

/** On the accounts app's /passkeys: "Add passkey", a name, and the list shows it. */
async function addPasskey(page: Page, name: string): Promise<void> {
  const before = await passkeyList(page).getByRole('listitem').count();
  await page.getByRole('button', { name: 'Add passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByRole('textbox', { name: 'Passkey name' }).fill(name);
  await dialog.getByRole('button', { name: 'Add passkey' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(passkeyList(page).getByRole('listitem')).toHaveCount(before + 1);
  await expect(passkeyList(page)).toContainText(name);
}

/**
 * A passkey for `account` made at the accounts app in a tab of its own (passkey recovery configured over
 * the API first, as the apps' settings do), for tests that are about signing in with it.
 */
async function registerPasskey(context: BrowserContext, account: ApiAccount, token: string) {
  await configurePasskeyRecovery(account, token);
  const { accountsToken } = await api<{ accountsToken: string }>('auth', 'GET', '/users/accounts-token', { token });
  const tab = await context.newPage();
  const keys = await VirtualAuthenticator.attach(tab);
  await tab.goto(`${appUrl('accounts')}/passkeys#token=${encodeURIComponent(accountsToken)}`);
  await addPasskey(tab, 'Phone');
  const [credential] = await keys.credentials();
  await tab.close();
  if (!credential) throw new Error('the authenticator holds no passkey');
  return credential satisfies VirtualCredential;
}

/** /login, the e-mail and the password at `app`, up to where the second factor is asked. */
async function startSignIn(page: Page, app: AppName, account: ApiAccount): Promise<void> {
  await openLogin(page, app);
  await enterEmail(page, account.email);
  await enterPassword(page, account.password);
}

/** A sign-in whose second factor is a passkey alone: straight to the accounts app's check and back. */
async function signInWithPasskey(page: Page, app: AppName, account: ApiAccount): Promise<void> {
  const check = page.waitForURL(new RegExp(`^${appUrl('accounts')}/passkeys/verify\\?`), { timeout: 60_000 });
  await startSignIn(page, app, account);
  await check;
}

async function chooseSecondFactor(page: Page, choice: 'Passkey' | 'Authenticator app code'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Choose a second factor' });
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await dialog.getByRole('button', { name: choice }).click();
}
