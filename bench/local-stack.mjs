// What the browser benchmarks of the codes page share: the stack started as `npm start` does, with a fresh
// database in a temporary folder (so the ports of `npm start` must be free) and the server's output where
// e2e's helpers read the e-mail codes, Debian's Chromium, and the figures' arithmetic.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium } from '@playwright/test';

import { serverLogPath } from '@ente/e2e/mail.ts';

import { chromiumPath } from '../scripts/setup.mjs';
import { startStack } from '../scripts/start.mjs';

/**
 * Starts the stack (route limits lifted: a benchmark writes far faster than a person) and the browser;
 * `serverEnv` adds settings of the server (photos-app.mjs lifts the upload-URL limit too), `build: false` skips the
 * build (the apps as they are in apps/<app>/out).
 */
export async function startLocalStack(name, { serverEnv = {}, build = true } = {}) {
  mkdirSync(path.dirname(serverLogPath), { recursive: true });
  writeFileSync(serverLogPath, '');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `ente-bench-${name}-`));
  const stack = await startStack({
    dataDir,
    build,
    onServerOutput: (line) => appendFileSync(serverLogPath, `${line}\n`),
    onUnexpectedExit: (reason) => {
      console.error(`✖ ${reason}`);
      process.exit(1);
    },
    serverEnv: { RATE_LIMIT_PER_MINUTE: '100000', ...serverEnv },
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  return {
    appUrl: stack.urls.auth,
    urls: stack.urls,
    browser,
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30) },
    async stop() {
      await browser.close();
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Follows the page's requests that `matches` picks; `idle()` resolves once none of them has been under way for
 * a second (a pull's next pages follow its first).
 */
export function trackRequests(page, matches) {
  let inFlight = 0;
  let lastChange = Date.now();
  const started = (request) => {
    if (!matches(request)) return;
    inFlight += 1;
    lastChange = Date.now();
  };
  const ended = (request) => {
    if (!matches(request)) return;
    inFlight = Math.max(0, inFlight - 1);
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async idle() {
      while (inFlight > 0 || Date.now() - lastChange < 1000) await page.waitForTimeout(100);
    },
  };
}

export function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function ms(value) {
  return `${Math.round(value).toLocaleString('en-US')} ms`;
}
