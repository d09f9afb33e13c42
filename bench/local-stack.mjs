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

/** Starts the stack (route limits lifted: a benchmark writes far faster than a person) and the browser. */
export async function startLocalStack(name) {
  mkdirSync(path.dirname(serverLogPath), { recursive: true });
  writeFileSync(serverLogPath, '');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `ente-bench-${name}-`));
  const stack = await startStack({
    dataDir,
    onServerOutput: (line) => appendFileSync(serverLogPath, `${line}\n`),
    onUnexpectedExit: (reason) => {
      console.error(`✖ ${reason}`);
      process.exit(1);
    },
    serverEnv: { RATE_LIMIT_PER_MINUTE: '100000' },
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  return {
    appUrl: stack.urls.auth,
    browser,
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30) },
    async stop() {
      await browser.close();
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
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
