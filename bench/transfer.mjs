// Import and export benchmark: the auth app's import and export dialogs with 1,000 codes, in Chromium
// against the local stack.
//   node --import tsx bench/transfer.mjs [--runs 3]          (npm run bench:transfer --workspace @ente/bench)
//
// Each run uses a new account (made over HTTP) signed in at /auth, and prints, as JSON and as lines:
// - `importMs`: an Ente plain-text export of 1,000 codes (with codeDisplay: tags, a note, some pinned)
//   chosen in the import dialog, until the dialog says all 1,000 were added and the list shows them
//   (target ≤ 10 s on 2 cores); split into `readMs` (file chosen → preview shown: detection and parsing in
//   the import worker) and `uploadMs` (import clicked → done: encryption in the crypto worker and 1,000 POSTs);
// - `longestTaskMs` and `longTasksMs`: the main thread's longest task and the sum of its tasks over 50 ms
//   while the file was read and imported (the page stays responsive when both stay small);
// - `exportMs`: the same 1,000 codes exported encrypted, from the Export button to the download, with the
//   Argon2id runs of the sensitive strategy counted apart (`argon2Ms`).
// It starts the stack as `npm start` does with a fresh database in a temporary folder, so the ports of
// `npm start` must be free.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { createAccount, passwordLogin, signInBrowser } from '@ente/e2e/api.ts';
import { authenticatorKey, readCodes } from '@ente/e2e/authenticator.ts';

import { median, ms, startLocalStack } from './local-stack.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const codeCount = 1000;
const targets = { importMs: 10_000 };

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');

const { appUrl, browser, machine, stop } = await startLocalStack('transfer');

try {
  const results = [];
  for (let run = 0; run < runs; run++) {
    const result = await importAndExport();
    results.push(result);
    console.log(
      `run ${run + 1}: import ${ms(result.importMs)} (read ${ms(result.readMs)}, upload ${ms(result.uploadMs)}), ` +
        `longest main-thread task ${ms(result.longestTaskMs)}, tasks over 50 ms ${ms(result.longTasksMs)}; ` +
        `encrypted export ${ms(result.exportMs)} (Argon2id ${ms(result.argon2Ms)})`,
    );
  }
  const pick = (key) => median(results.map((result) => result[key]));
  const report = {
    generatedAt: new Date().toISOString(),
    browser: `Chromium ${browser.version()} (headless)`,
    machine,
    codes: codeCount,
    runs: results,
    median: Object.fromEntries(
      ['importMs', 'readMs', 'uploadMs', 'longestTaskMs', 'longTasksMs', 'exportMs', 'argon2Ms'].map((key) => [
        key,
        pick(key),
      ]),
    ),
    targets: { import: pick('importMs') <= targets.importMs },
  };
  console.log(JSON.stringify(report, null, 2));
  mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(path.join(root, 'bench', 'results', 'transfer.json'), JSON.stringify(report, null, 2));
} finally {
  await stop();
}

/** One account: import the export through the dialog, then export the codes encrypted. */
async function importAndExport() {
  const { account } = await createAccount();
  const token = await passwordLogin(account, 'auth');
  await authenticatorKey(account, token);
  const context = await browser.newContext({ acceptDownloads: true });
  try {
    const page = await context.newPage();
    await page.goto(`${appUrl}/login`, { waitUntil: 'networkidle' });
    await signInBrowser(page, 'auth', account, token, '/auth');
    await page.getByRole('button', { name: 'Add your first code' }).waitFor();
    await page.evaluate(() => {
      window.__transferBench = { longTasks: [] };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__transferBench.longTasks.push(entry.duration);
      }).observe({ type: 'longtask' });
    });

    const dialog = await openTransfer(page, 'Import codes…');
    const start = Date.now();
    await dialog.getByTestId('import-file-input').setInputFiles({
      name: 'ente-auth-codes-plaintext.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(plainExport()),
    });
    await dialog.getByText(`To add: ${codeCount}`).waitFor({ timeout: 60_000 });
    const previewAt = Date.now();
    await dialog.getByRole('button', { name: `Import ${codeCount} codes` }).click();
    const clickedAt = Date.now();
    await dialog.getByText(`Codes added: ${codeCount}`).waitFor({ timeout: 120_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The list holds them: the last one by issuer is found.
    await page.getByRole('searchbox').fill(`Issuer ${codeCount - 1} `);
    await page.getByRole('listitem', { name: new RegExp(`Issuer ${codeCount - 1}\\b`) }).waitFor();
    const doneAt = Date.now();
    const longTasks = await page.evaluate(() => window.__transferBench.longTasks);
    const stored = await readCodes(account, token);
    if (stored.length !== codeCount) throw new Error(`the server holds ${stored.length} codes, not ${codeCount}`);
    await page.getByRole('searchbox').fill('');

    const exporting = await openTransfer(page, 'Export codes…');
    await exporting.getByRole('button', { name: 'Continue' }).click();
    await exporting.getByLabel('Account password').fill(account.password);
    await exporting.getByRole('button', { name: 'Continue' }).click();
    await exporting.getByLabel('Password for the file').fill('bench export password');
    await exporting.getByLabel('Password again').fill('bench export password');
    const since = await page.evaluate(() => performance.now());
    const downloading = page.waitForEvent('download', { timeout: 120_000 });
    const exportStart = Date.now();
    await exporting.getByRole('button', { name: 'Export' }).click();
    await downloading;
    const exportMs = Date.now() - exportStart;
    const argon2Ms = await page.evaluate(
      (from) =>
        performance
          .getEntriesByName('ente:argon2id', 'measure')
          .filter((entry) => entry.startTime >= from)
          .reduce((sum, entry) => sum + entry.duration, 0),
      since,
    );
    return {
      importMs: doneAt - start,
      readMs: previewAt - start,
      uploadMs: doneAt - clickedAt,
      longestTaskMs: Math.max(0, ...longTasks),
      longTasksMs: longTasks.reduce((sum, duration) => sum + duration, 0),
      exportMs,
      argon2Ms,
    };
  } finally {
    await context.close();
  }
}

async function openTransfer(page, item) {
  await page.getByRole('button', { name: 'Import and export' }).click();
  await page.getByRole('menuitem', { name: item }).click();
  const dialog = page.getByRole('dialog', { name: item === 'Import codes…' ? 'Import codes' : 'Export codes' });
  await dialog.waitFor();
  return dialog;
}

/** Ente's plain-text export of `codeCount` codes, with codeDisplay as Ente's apps write it. */
function plainExport() {
  const lines = Array.from({ length: codeCount }, (_, i) => {
    const display = { pinned: i % 50 === 0, trashed: false, tags: [`team ${i % 7}`], note: `note ${i}`, position: i };
    return (
      `otpauth://totp/Issuer%20${i}:user${i}%40example.org?secret=${base32Of(i)}&issuer=Issuer%20${i}` +
      `&algorithm=SHA1&digits=6&period=30&codeDisplay=${encodeURIComponent(JSON.stringify(display))}`
    );
  });
  return `${lines.join('\n')}\n`;
}

/** A distinct secret per index, in base32. */
function base32Of(index) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let text = '';
  let n = index + 7_000_003;
  for (let i = 0; i < 26; i++) {
    text += alphabet[(n * (i + 5)) % 32];
    n = Math.floor(n / 3) + i * 137;
  }
  return `${text}${alphabet[index % 32]}${alphabet[Math.floor(index / 32) % 32]}`;
}
