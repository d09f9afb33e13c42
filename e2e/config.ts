// The browser tests' settings from the environment: the only module of e2e that reads it.

export const e2eSettings = {
  /** The Chromium to drive (Debian's by default). */
  chromium: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
  /** Use the apps' existing out/ folders as they are instead of building them first. */
  skipBuild: process.env.E2E_SKIP_BUILD === '1',
  /** Running in CI: a focused test (`test.only`) fails the run. */
  ci: Boolean(process.env.CI),
} as const;
