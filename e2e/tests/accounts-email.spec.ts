// Changing the e-mail address from the settings: the code goes to the new address (read from the
// server log), the settings then show it, and it is the address that signs in.
import { expect, test } from '@playwright/test';

import { createAccount, signInBrowser, uniqueEmail } from '../api.ts';
import { Inbox } from '../mail.ts';
import { SecretsCollector } from '../secrets.ts';
import { expectHome, field, logOut, openSettings, signIn } from '../ui.ts';

test('change the e-mail address with a code sent to the new one, then sign in with it', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { account, token } = await createAccount();
  await signInBrowser(page, 'auth', account, token, '/auth');
  const newEmail = uniqueEmail('moved');
  const secrets = new SecretsCollector(testInfo).add('emails', newEmail);

  const settings = await openSettings(page);
  await settings.getByRole('button', { name: 'Change e-mail' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Change e-mail' })).toBeVisible();
  const inbox = await Inbox.open(newEmail);
  await page.getByRole('textbox', { name: 'New e-mail address' }).fill(newEmail);
  await page.getByRole('button', { name: 'Send code' }).click();
  // The field submits itself at six digits.
  await field.code(page).fill(await inbox.nextCode());
  await expectHome(page, 'auth', newEmail);
  const after = await openSettings(page);
  await expect(after.getByText(newEmail)).toBeVisible();
  await after.getByRole('button', { name: 'Close' }).click();

  await logOut(page);
  await signIn(page, 'auth', { email: newEmail, password: account.password });
  await secrets.fromSignedInPage(page, account.password);
  await secrets.save();
});
