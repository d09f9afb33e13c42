// The theme chosen in the app menu is applied at once and survives a reload (dark by default).
import { expect, test } from '@playwright/test';

import { appUrl, backgroundLuminance, waitUntilSettled } from '../stack.ts';

test('the theme chosen in the app menu survives a reload', async ({ page }) => {
  await page.goto(`${appUrl('cast')}/`);
  await waitUntilSettled(page);
  const menuButton = page.getByRole('button', { name: 'Menu' });

  await menuButton.click();
  await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');
  const darkBackground = await backgroundLuminance(page);
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await expect.poll(() => backgroundLuminance(page)).toBeGreaterThan(darkBackground + 0.5);

  await page.reload();
  await waitUntilSettled(page);
  expect(await backgroundLuminance(page)).toBeGreaterThan(darkBackground + 0.5);
  await menuButton.click();
  await expect(page.getByRole('menuitemradio', { name: 'Light' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'false');
});
