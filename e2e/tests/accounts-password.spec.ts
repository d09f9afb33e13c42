// Passwords through the pages: a change from the settings (the new password signs in, the old one is
// refused), and a forgotten password reset with the recovery key after the e-mail code.
import { expect, test } from '@playwright/test';

import { createAccount, signInBrowser } from '../api.ts';
import { Inbox } from '../mail.ts';
import { SecretsCollector } from '../secrets.ts';
import {
  enterEmail,
  enterPassword,
  expectHome,
  field,
  logOut,
  newPassword,
  openLogin,
  openSettings,
  signIn,
} from '../ui.ts';

test('change the password: the new one signs in, the old one no longer does', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { account, token } = await createAccount();
  const secrets = new SecretsCollector(testInfo).add('emails', account.email);
  await signInBrowser(page, 'auth', account, token, '/auth');

  const settings = await openSettings(page);
  await settings.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Change password' })).toBeVisible();
  const password = newPassword();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expectHome(page, 'auth', account.email);
  await secrets.fromSignedInPage(page, password);
  await secrets.save();

  await logOut(page);
  await openLogin(page, 'auth');
  await enterEmail(page, account.email);
  await enterPassword(page, account.password);
  // The field says what is wrong, and the page stays.
  await expect(field.password(page)).toHaveAttribute('aria-invalid', 'true', { timeout: 30_000 });
  await expect(field.password(page)).toHaveAccessibleDescription(
    'Incorrect password, or there is no account with this e-mail address.',
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Enter your password' })).toBeVisible();

  await signIn(page, 'auth', { email: account.email, password });
  await secrets.fromSignedInPage(page, password);
  await secrets.save();
});

test('forgot password: the e-mail code and the recovery key let a new password be set', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { account } = await createAccount();
  const secrets = new SecretsCollector(testInfo).add('emails', account.email);

  await openLogin(page, 'auth');
  await enterEmail(page, account.email);
  const inbox = await Inbox.open(account.email);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Verify your e-mail' })).toBeVisible();
  await field.code(page).fill(await inbox.nextCode());
  await expect(page.getByRole('heading', { level: 1, name: 'Recover your account' })).toBeVisible({ timeout: 30_000 });
  await field.recoveryKey(page).fill(account.recoveryWords);
  await page.getByRole('button', { name: 'Recover' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible({ timeout: 30_000 });
  const password = newPassword();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expectHome(page, 'auth', account.email);
  await secrets.fromSignedInPage(page, password);
  await secrets.save();

  await logOut(page);
  await signIn(page, 'auth', { email: account.email, password });
});
