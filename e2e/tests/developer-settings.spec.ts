// The hidden developer settings of /login set the API origin (kv `apiOrigin`), but only after the new
// origin answered GET /ping; an origin that does not answer is refused and nothing is saved.
import { expect, test, type Page } from '@playwright/test';

import { appUrl, readKV, serverUrl, waitUntilSettled, watchProblems } from '../stack.ts';

test('the developer settings point the app at the local server after pinging it', async ({ page }) => {
  const problems = await watchProblems(page);
  await page.goto(`${appUrl('auth')}/login`);
  await waitUntilSettled(page);
  const dialog = await openDeveloperSettings(page, 'keyboard');

  const ping = page.waitForResponse((response) => response.url() === `${serverUrl}/ping`);
  await dialog.getByRole('textbox').fill(serverUrl);
  await dialog.getByRole('button', { name: /save/i }).click();
  const response = await ping;
  expect(response.status()).toBe(200);
  expect(await response.request().headerValue('X-Client-Package')).toBe('io.ente.auth.web');

  await expect(dialog).toBeHidden();
  expect(await readKV(page, 'apiOrigin')).toBe(serverUrl);
  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
});

test('an origin that does not answer /ping is not saved', async ({ page }) => {
  await page.goto(`${appUrl('auth')}/login`);
  await waitUntilSettled(page);
  const dialog = await openDeveloperSettings(page, 'clicks');

  // Nothing listens on the discard port; https: is allowed by the CSP, so this is a network failure.
  await dialog.getByRole('textbox').fill('https://127.0.0.1:9');
  await dialog.getByRole('button', { name: /save/i }).click();

  await expect(dialog.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toBeVisible();
  expect(await readKV(page, 'apiOrigin')).toBeUndefined();
});

/** The dialog is hidden on purpose: seven clicks on the page background, or Alt+Shift+D, open it. */
async function openDeveloperSettings(page: Page, how: 'keyboard' | 'clicks') {
  if (how === 'keyboard') {
    await page.keyboard.press('Alt+Shift+KeyD');
  } else {
    // The corner of <main> is its own padding: background, not text.
    for (let click = 0; click < 7; click++) await page.getByRole('main').click({ position: { x: 2, y: 2 } });
  }
  const dialog = page.getByRole('dialog', { name: /developer/i });
  await expect(dialog).toBeVisible();
  return dialog;
}
