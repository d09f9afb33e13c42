// Two-factor authentication through the pages: turned on from the settings with a code the test
// computes from the secret the setup page shows; then a sign-in asks for a code; and a lost
// authenticator is got around with the recovery key, which turns two-factor off.
import { expect, test, type Page } from '@playwright/test';

import { api, createAccount, enableTwoFactor, signInBrowser } from '../api.ts';
import { SecretsCollector } from '../secrets.ts';
import { readKV } from '../stack.ts';
import { Authenticator } from '../totp.ts';
import { enterEmail, enterPassword, expectHome, field, logOut, openLogin, openSettings, signIn } from '../ui.ts';

test('turn two-factor on with the secret shown, then sign in with a code', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { account, token } = await createAccount();
  const secrets = new SecretsCollector(testInfo).add('emails', account.email);
  await signInBrowser(page, 'auth', account, token, '/auth');

  const settings = await openSettings(page);
  await settings.getByRole('switch', { name: 'Two-factor authentication' }).click();
  await expect(page).toHaveURL(/\/two-factor\/setup$/);
  await expect(page.getByRole('img', { name: 'QR code that adds your account to an authenticator app' })).toBeVisible();
  const secret = await twoFactorSecretShown(page);
  secrets.add('twoFactorSecrets', secret);
  await secrets.save();
  const authenticator = new Authenticator(secret);
  // The field submits itself at six digits.
  await field.code(page).fill(await authenticator.nextCode());
  const done = page.getByRole('dialog', { name: 'Two-factor authentication is on' });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await done.getByRole('button', { name: 'OK' }).click();
  expect(await api('auth', 'GET', '/users/two-factor/status', { token })).toEqual({ status: true });

  await logOut(page);
  await signIn(page, 'auth', account, authenticator);
  await secrets.fromSignedInPage(page, account.password);
  await secrets.save();
});

test('a lost authenticator: the recovery key turns two-factor off and signs in', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { account, token } = await createAccount();
  // The authenticator is "lost": its codes are never used.
  await enableTwoFactor(account, 'auth', token);
  const secrets = new SecretsCollector(testInfo).add('emails', account.email);

  await openLogin(page, 'auth');
  await enterEmail(page, account.email);
  await enterPassword(page, account.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Two-factor authentication' })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('link', { name: 'Lost your device?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Recover two-factor authentication' })).toBeVisible();
  await field.recoveryKey(page).fill(account.recoveryWords);
  await page.getByRole('button', { name: 'Recover' }).click();
  // The password was typed once: the KEK kept for this hand-over unlocks without asking again.
  await expectHome(page, 'auth', account.email);
  await secrets.fromSignedInPage(page, account.password);
  await secrets.save();

  const browserToken = await readKV(page, 'token');
  expect(typeof browserToken).toBe('string');
  expect(await api('auth', 'GET', '/users/two-factor/status', { token: browserToken as string })).toEqual({
    status: false,
  });
});

/** The secret as the setup page shows it for typing into an authenticator app (groups of four). */
async function twoFactorSecretShown(page: Page): Promise<string> {
  await expect(page.getByText("Can't scan it? Enter this key in your app:")).toBeVisible({ timeout: 30_000 });
  const shown = await page.getByRole('main').getByRole('code').innerText();
  const secret = shown.replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  return secret;
}
