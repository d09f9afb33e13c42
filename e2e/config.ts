// The browser tests' settings from the environment: the only module of e2e that reads it, or writes
// it (global setup hands the running stack to the test workers through it).

export const e2eSettings = {
  /** The Chromium to drive (Debian's by default). */
  chromium: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
  /** Use the apps' existing out/ folders as they are instead of building them first. */
  skipBuild: process.env.E2E_SKIP_BUILD === '1',
  /**
   * Record a Playwright trace of each test, kept for the ones that fail (off by default: its screencast and DOM
   * snapshots took a fifth of the suite's time on two cores, and CI keeps no files).
   */
  trace: process.env.E2E_TRACE === '1',
  /** Running in CI: a focused test (`test.only`) fails the run. */
  ci: Boolean(process.env.CI),
} as const;

/** What global setup tells the test workers about the stack it started. */
export interface StackHandoff {
  /** The server's PGlite folder (read by the leak scan once the server has stopped). */
  dataDir: string;
  /** The control endpoint of global setup: `POST /stop` stops the whole stack (the leak scan only). */
  controlUrl: string;
}

const handoffVariable = 'E2E_STACK';

/** Called by global setup: Playwright starts the workers after it, with its environment. */
export function handOffStack(handoff: StackHandoff): void {
  process.env[handoffVariable] = JSON.stringify(handoff);
}

/** In a test worker: the stack global setup started; throws when the tests run without it. */
export function handedOffStack(): StackHandoff {
  const text = process.env[handoffVariable];
  if (!text) throw new Error(`${handoffVariable} is not set: run the tests through playwright.config.ts`);
  return JSON.parse(text) as StackHandoff;
}
