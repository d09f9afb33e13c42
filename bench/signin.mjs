// Sign-in benchmark: in Chromium against the local stack, one sign-up through the UI, then N sign-ins
// with the password through the UI, each in a fresh browser context (a new device: no local key
// attributes). For each sign-in it prints the time from submitting the e-mail on /login to the home
// page showing the account, the Argon2id runs the crypto worker reported on the main thread
// (`ente:argon2id` measures, packages/crypto/src/boundary.ts) and everything else (total − Argon2id).
// Targets: exactly one sensitive derivation per sign-in; everything else under 300 ms.
//   node bench/signin.mjs [--runs 5] [--app auth] [--key-delay 80]     (npm run bench:signin --workspace @ente/bench)
//
// The e-mail and the password are typed key by key, `--key-delay` ms apart (80 by default: about twelve
// characters a second, a quick typist), because the pages prepare the next step while the user types;
// `--key-delay 0` fills each field at once, as a password manager does, and leaves them no time for it.
//
// It starts the stack as `npm start` does (startStack, the same build settings; turbo's cache makes the
// build a no-op when the apps are built), with a fresh database in a temporary folder, so the ports of
// `npm start` must be free. The e-mail code comes from the server's output, where the local server
// writes it instead of mailing it. Results go to bench/results/signin.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { chromium } from '@playwright/test';

import { chromiumPath } from '../scripts/setup.mjs';
import { startStack } from '../scripts/start.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Each app's home after sign-in (docs/product.md#routes). */
const homes = { auth: '/auth', photos: '/gallery', accounts: '/passkeys', cast: '/' };
/** Everything but Argon2id must take less than this per sign-in. */
const otherTargetMs = 300;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    app: { type: 'string', default: 'auth' },
    'key-delay': { type: 'string', default: '80' },
  },
});
const runs = Number(values.runs);
const app = /** @type {keyof typeof homes} */ (values.app);
const keyDelayMs = Number(values['key-delay']);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
if (!Number.isInteger(keyDelayMs) || keyDelayMs < 0) throw new Error('--key-delay must be a whole number of ms');
if (!(app in homes)) throw new Error(`--app must be one of ${Object.keys(homes).join(', ')}`);
const home = homes[app];

/** @type {string[]} */
const serverLines = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ente-bench-signin-'));
const stack = await startStack({
  dataDir,
  onServerOutput: (line) => serverLines.push(line),
  onUnexpectedExit: (reason) => {
    console.error(`✖ ${reason}\n${serverLines.slice(-20).join('\n')}`);
    process.exit(1);
  },
  // A benchmark signs in more often than the per-IP route limit allows (docs/protocol.md#rate-limits).
  serverEnv: { RATE_LIMIT_PER_MINUTE: '1000' },
});
const appUrl = stack.urls[app];
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});

const email = `bench-${Date.now().toString(36)}@example.org`;
const password = `bench-${Math.random().toString(36).slice(2)}-Pa55!`;
let report;
try {
  const signUp = await signUpOnce();
  console.log(
    `sign-up: ${ms(signUp.totalMs)} (${ms(signUp.keysMs)} to /verify, ${ms(signUp.verifyMs)} code → recovery key)`,
  );
  const signIns = [];
  for (let run = 1; run <= runs; run++) {
    const result = await signInOnce();
    signIns.push(result);
    console.log(
      `sign-in ${run}: total ${ms(result.totalMs)} = Argon2id ${ms(result.argon2Ms)} + everything else ` +
        `${ms(result.otherMs)} (/login → /credentials ${ms(result.loginStepMs)}, password → Argon2id start ` +
        `${ms(result.otherParts.passwordBeforeArgon2Ms ?? NaN)}, Argon2id end → home ${ms(result.otherParts.passwordAfterArgon2Ms ?? NaN)}); Argon2id runs: ${result.argon2Runs
          .map(
            (r) =>
              `${r.method} ${r.memLimit / 2 ** 20} MiB × ${r.opsLimit} ${ms(r.durationMs)}${r.beforeHome ? '' : ' (after home)'}`,
          )
          .join(', ')}; max frame gap ${ms(result.maxFrameGapMs)}`,
    );
  }
  const median = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const summary = {
    totalMs: median(signIns.map((r) => r.totalMs)),
    argon2Ms: median(signIns.map((r) => r.argon2Ms)),
    otherMs: median(signIns.map((r) => r.otherMs)),
    argon2RunsPerSignIn: [...new Set(signIns.map((r) => r.argon2Runs.length))],
    argon2RunsBeforeHomePerSignIn: [...new Set(signIns.map((r) => r.argon2RunsBeforeHome))],
    sensitiveRunsPerSignIn: [...new Set(signIns.map((r) => r.sensitiveRuns))],
    maxFrameGapMs: Math.max(...signIns.map((r) => r.maxFrameGapMs)),
  };
  const targets = {
    oneSensitiveDerivationPerSignIn: signIns.every((r) => r.sensitiveRuns === 1),
    oneDerivationPerSignIn: signIns.every((r) => r.argon2Runs.length === 1),
    oneDerivationBeforeHome: signIns.every((r) => r.argon2RunsBeforeHome === 1),
    otherUnder300Ms: summary.otherMs < otherTargetMs,
  };
  report = {
    generatedAt: new Date().toISOString(),
    app,
    keyDelayMs,
    browser: `Chromium ${browser.version()} (headless)`,
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30) },
    signUp,
    signIns,
    median: summary,
    targets,
  };
  console.log(
    `median of ${runs} sign-ins (keys typed ${keyDelayMs} ms apart): total ${ms(summary.totalMs)}, Argon2id ${ms(summary.argon2Ms)}, everything else ` +
      `${ms(summary.otherMs)} (target < ${otherTargetMs} ms: ${targets.otherUnder300Ms ? 'met' : 'MISSED'}); Argon2id runs ` +
      `per sign-in ${summary.argon2RunsPerSignIn.join('/')} (before the home page ${summary.argon2RunsBeforeHomePerSignIn.join('/')}), ` +
      `sensitive ${summary.sensitiveRunsPerSignIn.join('/')} (target exactly one: ${
        targets.oneDerivationPerSignIn
          ? 'met'
          : targets.oneSensitiveDerivationPerSignIn && targets.oneDerivationBeforeHome
            ? 'one before the home page; the interactive one follows it'
            : targets.oneSensitiveDerivationPerSignIn
              ? 'one sensitive, plus the interactive one'
              : 'MISSED'
      })`,
  );
  mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(path.join(root, 'bench', 'results', 'signin.json'), JSON.stringify(report, null, 2));
} finally {
  await browser.close();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The sign-up through the UI: /signup → /verify (code from the server output) → /generate → home. */
async function signUpOnce() {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${appUrl}/signup`, { waitUntil: 'networkidle' });
    await page.getByRole('textbox', { name: 'E-mail address' }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password', { exact: true }).fill(password);
    const codesBefore = codesFor(email).length;
    const begin = performance.now();
    await page.getByRole('button', { name: 'Create account' }).click();
    const codeField = page.getByRole('textbox', { name: '6-digit code' });
    await codeField.waitFor({ timeout: 60_000 });
    const keysMs = performance.now() - begin;
    const code = await waitForCode(email, codesBefore);
    const verifyBegin = performance.now();
    await codeField.fill(code);
    await page.getByRole('checkbox', { name: 'I saved my recovery key in a safe place.' }).waitFor({ timeout: 60_000 });
    const verifyMs = performance.now() - verifyBegin;
    await page.getByRole('checkbox', { name: 'I saved my recovery key in a safe place.' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${appUrl}${home}`);
    return { totalMs: keysMs + verifyMs, keysMs, verifyMs };
  } finally {
    await context.close();
  }
}

/**
 * One sign-in on a fresh device. A watcher in the page records, on the page's own clock, each form
 * submission, the first frame in which /credentials offers its password field, and the first frame in
 * which the home page names the account; so the time the test takes to type the password is not
 * counted, and neither is Playwright's polling.
 */
async function signInOnce() {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${appUrl}/login`, { waitUntil: 'networkidle' });
    await page.evaluate(installWatcher, { home, email });
    await type(page.getByRole('textbox', { name: 'E-mail address' }), email);
    await page.getByRole('button', { name: 'Continue' }).click();
    const passwordField = page.getByLabel('Password', { exact: true });
    await type(passwordField, password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForFunction(() => window.__signinBench?.homeAt !== undefined, undefined, { timeout: 60_000 });
    const watched = await page.evaluate(() => window.__signinBench);
    const [loginSubmit, credentialsSubmit] = watched.submits;
    if (loginSubmit === undefined || credentialsSubmit === undefined || watched.credentialsReadyAt === undefined) {
      throw new Error(`the watcher missed a step: ${JSON.stringify(watched)}`);
    }
    // The interactive key attributes of this device are made after the home page shows
    // (docs/protocol.md#interactive-key-attributes): wait for them, so every run of the sign-in is counted.
    await page.waitForFunction(
      () => JSON.parse(localStorage.getItem('keyAttributes') ?? '{}').opsLimit === 2,
      undefined,
      {
        timeout: 60_000,
      },
    );
    await page.waitForFunction(
      () => performance.getEntriesByName('ente:argon2id', 'measure').some((entry) => entry.detail?.opsLimit === 2),
      undefined,
      { timeout: 10_000 },
    );
    const runsSeen = await page.evaluate(
      (since) =>
        performance
          .getEntriesByName('ente:argon2id', 'measure')
          .filter((entry) => entry.startTime >= since)
          .map((entry) => ({ ...entry.detail, startMs: entry.startTime, durationMs: entry.duration })),
      loginSubmit,
    );
    const beforeHome = runsSeen.filter((run) => run.startMs + run.durationMs <= watched.homeAt);
    const loginStepMs = watched.credentialsReadyAt - loginSubmit;
    const passwordStepMs = watched.homeAt - credentialsSubmit;
    const totalMs = loginStepMs + passwordStepMs;
    const argon2Ms = beforeHome.reduce((sum, run) => sum + run.durationMs, 0);
    // Where the rest goes on the password step: before the derivation starts (the worker and libsodium
    // loading on a new device) and after it ends (SRP, the requests, decryption, the home page).
    const firstRun = beforeHome[0];
    const lastRun = beforeHome.at(-1);
    const beforeArgon2Ms = firstRun ? firstRun.startMs - credentialsSubmit : undefined;
    const afterArgon2Ms = lastRun ? watched.homeAt - (lastRun.startMs + lastRun.durationMs) : undefined;
    return {
      totalMs,
      loginStepMs,
      passwordStepMs,
      argon2Ms,
      otherMs: totalMs - argon2Ms,
      otherParts: { loginStepMs, passwordBeforeArgon2Ms: beforeArgon2Ms, passwordAfterArgon2Ms: afterArgon2Ms },
      argon2Runs: runsSeen.map(({ method, opsLimit, memLimit, ok, durationMs, startMs }) => ({
        method,
        opsLimit,
        memLimit,
        ok,
        durationMs,
        beforeHome: startMs + durationMs <= watched.homeAt,
      })),
      argon2RunsBeforeHome: beforeHome.length,
      sensitiveRuns: runsSeen.filter((run) => run.opsLimit * run.memLimit === 4 * 2 ** 30).length,
      maxFrameGapMs: watched.maxGap,
    };
  } finally {
    await context.close();
  }
}

/** Runs in the page: records submissions, arrival on /credentials and on the home page, and frame gaps. */
function installWatcher({ home, email }) {
  const state = { submits: [], credentialsReadyAt: undefined, homeAt: undefined, maxGap: 0 };
  window.__signinBench = state;
  document.addEventListener('submit', () => state.submits.push(performance.now()), true);
  let last = performance.now();
  const tick = (frameTime) => {
    state.maxGap = Math.max(state.maxGap, frameTime - last);
    last = frameTime;
    const here = location.pathname.replace(/\/$/, '') || '/';
    if (state.credentialsReadyAt === undefined && here === '/credentials') {
      const field = document.querySelector('input[type="password"]');
      if (field && !field.disabled) state.credentialsReadyAt = performance.now();
    }
    if (here === home && document.body.innerText.includes(email)) {
      state.homeAt = performance.now();
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Types `text` into `field` as --key-delay says. */
async function type(field, text) {
  if (keyDelayMs === 0) await field.fill(text);
  else await field.pressSequentially(text, { delay: keyDelayMs });
}

function codesFor(address) {
  const prefix = `Skipping sending email to ${address}: Verification code: `;
  return serverLines.flatMap((line) => {
    const at = line.indexOf(prefix);
    return at === -1 ? [] : [line.slice(at + prefix.length, at + prefix.length + 6)];
  });
}

async function waitForCode(address, seen) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const codes = codesFor(address);
    if (codes.length > seen) return codes[seen];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no code for ${address} in the server output`);
}

function ms(value) {
  return `${Math.round(value)} ms`;
}
