// Browser tests: Playwright driving Debian's Chromium (no browser download) against the whole local
// stack, which global-setup.ts starts through the same startStack() as `npm start`.
import { defineConfig } from '@playwright/test';

import { e2eSettings } from './config.ts';

const launchOptions = {
  executablePath: e2eSettings.chromium,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  // One browser at a time: the machine has two cores, and the tests share one server and its data.
  workers: 1,
  fullyParallel: false,
  forbidOnly: e2eSettings.ci,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: './test-results',
  // The leak scan runs last, after every other test: it stops the stack to read the server's database.
  // The back/forward cache tests run in a browser with that cache on (Playwright turns it off by default).
  projects: [
    { name: 'browser', testIgnore: ['leaks.spec.ts', 'bfcache.spec.ts'] },
    {
      name: 'bfcache',
      testMatch: 'bfcache.spec.ts',
      use: { launchOptions: { ...launchOptions, ignoreDefaultArgs: ['--disable-back-forward-cache'] } },
    },
    { name: 'leaks', testMatch: 'leaks.spec.ts', dependencies: ['browser'] },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    trace: e2eSettings.trace ? 'retain-on-failure' : 'off',
    launchOptions,
  },
});
