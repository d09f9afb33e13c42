// Revoking another session from the settings: a second device signed in over the API (with its own
// User-Agent, so the list names it) is signed out; its next request answers 401 and it shows the
// "session expired" dialog, whose only action logs out.
import { expect, test } from '@playwright/test';

import { createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { expectOnlyPreferencesLeft } from '../probes.ts';
import { openSettings } from '../ui.ts';

const otherDevice = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

test('revoke another session: that device is told its session expired', async ({ browser, page }) => {
  test.setTimeout(180_000);
  const { account, token } = await createAccount();
  const otherToken = await passwordLogin(account, 'auth', { userAgent: otherDevice });
  await signInBrowser(page, 'auth', account, token, '/auth');
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signInBrowser(other, 'auth', account, otherToken, '/auth');
  await expect(other.getByText(account.email)).toBeVisible();

  const settings = await openSettings(page);
  await settings.getByRole('button', { name: 'Active sessions' }).click();
  const sessions = settings.getByRole('list', { name: 'Active sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await sessions.getByRole('button', { name: 'Sign out Firefox on Linux' }).click();
  await page.getByRole('dialog', { name: 'Sign out this session?' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);

  // The other device's next call: loading a page checks the session with the server.
  await other.reload();
  const expired = other.getByRole('dialog', { name: 'Session expired' });
  await expect(expired).toBeVisible();
  await expect(expired.getByRole('button')).toHaveText(['Log out']);
  const reloaded = other.waitForEvent('load');
  await expired.getByRole('button', { name: 'Log out' }).click();
  await reloaded;
  await expectOnlyPreferencesLeft(other);
  await otherContext.close();
});
