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
  // Two browsers at once: a run left one of the two cores idle half the time (the tests wait on the server, on
  // timers and on each other's pages). The specs share only the server, each with accounts of its own; the
  // sign-up spec, whose frame-gap check needs a core free, runs alone after them (the `alone` project).
  workers: 2,
  fullyParallel: false,
  forbidOnly: e2eSettings.ci,
  retries: 0,
  // Upper bounds for waiting, not speed checks, doubled for two browsers (so are the waits of 60 s in the specs, for a
  // step that derives a key): beside another browser, a 256 MiB Argon2id can take twice as long.
  timeout: 60_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  outputDir: './test-results',
  // The leak scan runs last, after every other test: it stops the stack to read the server's database.
  // The back/forward cache tests run in a browser with that cache on (Playwright turns it off by default).
  // The sign-up spec runs when the others have ended, with nothing beside it (its 200 ms frame-gap check).
  projects: [
    { name: 'browser', testIgnore: ['leaks.spec.ts', 'bfcache.spec.ts', 'accounts-signup.spec.ts'] },
    { name: 'alone', testMatch: 'accounts-signup.spec.ts', dependencies: ['browser', 'bfcache'] },
    {
      name: 'bfcache',
      testMatch: 'bfcache.spec.ts',
      use: { launchOptions: { ...launchOptions, ignoreDefaultArgs: ['--disable-back-forward-cache'] } },
    },
    { name: 'leaks', testMatch: 'leaks.spec.ts', dependencies: ['alone'] },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    launchOptions,
  },
});
