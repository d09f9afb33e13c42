// `npm test`: every check of the project (`npm run lint`'s three and every test suite) on a fresh clone of
// a fresh machine. It installs what it needs (npm dependencies, Debian's Chromium, and a throwaway
// PostgreSQL 15 cluster for the server suite's second run), then runs its steps in the order that fails
// fastest: the type check (it keeps both cores busy, and its `next typegen` writes files eslint's typed rules
// read); eslint (one core) beside prettier and then the server suite on PostgreSQL; the unit and integration
// tests; the script tests; then the builds (the four apps and the server) and the browser tests. Steps that
// run together print their output when they end.
// Nothing runs beside the browser tests: their frame-gap checks (200 ms) need the cores the sign-in's
// Argon2id leaves, and in two gate runs with the suites beside them at nice 19 a gap reached 216–233 ms.
// It ends with one summary line.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { quietEnv } from './config.mjs';
import { ensureChromium, ensureDependencies, root, runCaptured } from './setup.mjs';
import { localBuildEnv } from './start.mjs';

const results = [];
const started = Date.now();

ensureDependencies();
ensureChromium();

await step('type check (TypeScript 7, every workspace)', 'npx', ['turbo', 'run', 'typecheck']);
await together(
  step('eslint (strict, type-aware, layer rules)', 'npx', ['eslint', '.', '--max-warnings', '0'], { buffered: true }),
  (async () => [
    await step('prettier', 'npx', ['prettier', '--check', '.'], { buffered: true }),
    await postgresRun({ buffered: true }),
  ])(),
);
await step('unit and integration tests (PGlite)', 'npx', ['turbo', 'run', 'test']);
await step('script tests', 'node', ['--test', ...scriptTests()]);
await step('app and server builds, browser tests', 'npx', ['turbo', 'run', 'e2e'], {
  env: { ...quietEnv, ...localBuildEnv() },
});

summarise();

/**
 * Runs one step, keeps its exit code and the test counts its runner printed. `buffered`: the output is printed
 * when the step ends (for steps that run together), and the result is returned rather than recorded.
 */
async function step(name, command, args, { buffered = false, ...options } = {}) {
  if (!buffered) console.log(`\n━━ ${name} ━━`);
  const begin = Date.now();
  const { code, output } = await runCaptured(command, args, { cwd: root, echo: !buffered, ...options });
  const seconds = (Date.now() - begin) / 1000;
  if (buffered) process.stdout.write(`\n━━ ${name} (${seconds.toFixed(1)} s) ━━\n${output}`);
  const result = { name, code, seconds, ...countTests(output) };
  if (!buffered) results.push(result);
  return result;
}

/** Waits for steps (or runs of steps) that run at once and records their results in the order given. */
async function together(...running) {
  for (const result of (await Promise.all(running)).flat()) if (result) results.push(result);
}

/** The server suite again, on a real PostgreSQL (PGlite is PostgreSQL 18; production runs 15). */
async function postgresRun({ buffered = false } = {}) {
  if (!existsSync(path.join(root, 'scripts', 'postgres.mjs'))) return undefined;
  const { startPostgres } = await import('./postgres.mjs');
  let postgres;
  try {
    postgres = await startPostgres();
  } catch (error) {
    console.error('Could not start PostgreSQL:', error);
    return { name: 'server tests on PostgreSQL', code: 1, seconds: 0, passed: 0, failed: 0 };
  }
  try {
    return await step(
      `server tests on PostgreSQL ${postgres.version}`,
      'npx',
      // Two shards (two processes, the files dealt out by size); each file's servers get scratch databases.
      ['turbo', 'run', 'test', '--filter=@ente/server', '--', '--test-concurrency=2'],
      { env: { ...quietEnv, DATABASE_URL: postgres.url }, buffered },
    );
  } finally {
    await postgres.stop();
  }
}

/** The node:test suites of the tooling folders (`node --test scripts/` would also pick up this file). */
function scriptTests() {
  return ['scripts', 'config'].flatMap((folder) =>
    readdirSync(path.join(root, folder))
      .filter((name) => name.endsWith('.test.mjs'))
      .map((name) => path.join(folder, name)),
  );
}

/**
 * Adds up the counts that jest ("Tests: 3 failed, 40 passed, 43 total"), node's test runner ("ℹ pass 12",
 * "ℹ fail 0") and Playwright ("12 passed (30.1s)") print. Turbo replays cached output, so cached runs count too.
 */
function countTests(output) {
  // eslint-disable-next-line no-control-regex
  const text = output.replace(/\x1b\[[0-9;]*m/g, '');
  let passed = 0;
  let failed = 0;
  for (const line of text.split('\n')) {
    const jest = /Tests:\s+(.*)\d+ total/.exec(line);
    if (jest) {
      passed += Number(/(\d+) passed/.exec(jest[1])?.[1] ?? 0);
      failed += Number(/(\d+) failed/.exec(jest[1])?.[1] ?? 0);
      continue;
    }
    const node = /[ℹ#] (pass|fail) (\d+)\s*$/.exec(line);
    if (node) {
      if (node[1] === 'pass') passed += Number(node[2]);
      else failed += Number(node[2]);
      continue;
    }
    const playwright = /^\S*\s*(\d+) (passed|failed|flaky)( \(.*\))?\s*$/.exec(line.replace(/^[^:]*:e2e:/, ''));
    if (playwright) {
      if (playwright[2] === 'passed') passed += Number(playwright[1]);
      else failed += Number(playwright[1]);
    }
  }
  return { passed, failed };
}

function summarise() {
  console.log('\n━━ summary ━━');
  for (const r of results) {
    const mark = r.code === 0 ? '✔' : '✖';
    console.log(`${mark} ${r.name}: ${r.passed} passed, ${r.failed} failed (${r.seconds.toFixed(1)} s)`);
  }
  const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
  const failedSteps = results.filter((r) => r.code !== 0);
  console.log(`Total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (failedSteps.length) console.log(`Failed steps: ${failedSteps.map((r) => r.name).join(', ')}`);
  console.log(
    `${total('passed')} passed, ${total('failed') + (failedSteps.length && !total('failed') ? 1 : 0)} failed`,
  );
  process.exit(failedSteps.length ? 1 : 0);
}
