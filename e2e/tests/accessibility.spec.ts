// An axe scan of each page, in the dark and the light theme, finds no serious or critical violation.
// Pages that need a signed-in user are scanned signed in (signed out they only redirect to /login).
import { expect, test } from '@playwright/test';

import { signInSomeone } from '../api.ts';
import { appPages, appUrl, backgroundLuminance, pageName, seriousViolations, waitUntilSettled } from '../stack.ts';

for (const entry of appPages) {
  test(`${pageName(entry)} has no serious or critical axe violation in either theme`, async ({ page }) => {
    if (entry.requiresLogin) await signInSomeone(page, entry.app);
    const found: Record<string, unknown[]> = {};
    for (const theme of ['dark', 'light']) {
      // The saved theme as the app stores it (local storage `theme`, a JSON string), set before load;
      // init scripts run in the order they were added, so the latest theme wins.
      await page.addInitScript((mode) => localStorage.setItem('theme', JSON.stringify(mode)), theme);
      await page.goto(`${appUrl(entry.app)}${entry.path}`);
      await waitUntilSettled(page);
      expect(new URL(page.url()).pathname).toBe(entry.path);
      const luminance = await backgroundLuminance(page);
      expect(theme === 'light' ? luminance > 0.5 : luminance < 0.2, `${theme} background`).toBe(true);
      found[theme] = await seriousViolations(page);
    }
    expect(found).toEqual({ dark: [], light: [] });
  });
}
