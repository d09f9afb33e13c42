// Sign-up and sign-in by keyboard alone: the test only presses keys (Tab to move, typing, Space to
// tick, Enter to submit or choose), checking after each Tab where the focus went, as a person who
// cannot use a mouse would.
import { expect, test, type Locator, type Page } from '@playwright/test';

import { uniqueEmail } from '../api.ts';
import { Inbox } from '../mail.ts';
import { appUrl, waitUntilSettled } from '../stack.ts';
import { expectHome, field, newPassword } from '../ui.ts';

test('sign up and sign in using only the keyboard', async ({ page }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('keyboard');
  const password = newPassword();

  await page.goto(`${appUrl('auth')}/signup`);
  await waitUntilSettled(page);
  await tabTo(page, field.email(page));
  await page.keyboard.type(email);
  await tabTo(page, field.password(page));
  await page.keyboard.type(password);
  await tabTo(page, field.confirmPassword(page));
  await page.keyboard.type(password);
  const inbox = await Inbox.open(email);
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { level: 1, name: 'Verify your e-mail' })).toBeVisible({ timeout: 30_000 });
  await tabTo(page, field.code(page));
  await page.keyboard.type(await inbox.nextCode());

  const saved = page.getByRole('checkbox', { name: 'I saved my recovery key in a safe place.' });
  await expect(saved).toBeVisible({ timeout: 30_000 });
  await tabTo(page, saved);
  await page.keyboard.press('Space');
  await expect(saved).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');
  await expectHome(page, 'auth', email);

  // Log out through the app menu: Enter opens it, End goes to its last item, "Log out".
  await tabTo(page, page.getByRole('button', { name: 'Menu' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('End');
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeFocused();
  const reloaded = page.waitForEvent('load');
  await page.keyboard.press('Enter');
  await reloaded;

  await page.goto(`${appUrl('auth')}/login`);
  await waitUntilSettled(page);
  await tabTo(page, field.email(page));
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Enter your password' })).toBeVisible();
  await tabTo(page, field.password(page));
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await expectHome(page, 'auth', email);
});

/** Presses Tab until `target` has the focus (at most 30 times): the target must be reachable by Tab. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 30; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, 'reachable with Tab').toBeFocused();
}
