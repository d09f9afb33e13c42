// Going offline shows the translated OFFLINE_MSG banner; coming back online removes it.
import { expect, test } from '@playwright/test';

import { appUrl, waitUntilSettled, type AppName } from '../stack.ts';

const offlineMessage = "You are offline. Some things won't work until you reconnect.";

const pages: Array<[AppName, string]> = [
  ['auth', '/login'],
  ['cast', '/'],
];

for (const [app, path] of pages) {
  test(`${app} ${path} shows the offline banner while offline`, async ({ page, context }) => {
    await page.goto(`${appUrl(app)}${path}`);
    await waitUntilSettled(page);
    await expect(page.getByText(offlineMessage)).toHaveCount(0);

    await context.setOffline(true);
    await expect(page.getByRole('status').filter({ hasText: offlineMessage })).toBeVisible();

    await context.setOffline(false);
    await expect(page.getByText(offlineMessage)).toHaveCount(0);
  });
}
