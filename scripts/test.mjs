// `npm test`: every check of the project (`npm run lint`'s three and every test suite) on a fresh clone of
// a fresh machine. It installs what it needs (npm dependencies, Debian's Chromium, and a throwaway
// PostgreSQL 15 cluster for the server suite's second run), then runs its steps in four stages, in the order
// that fails fastest. The steps of a stage run together, to keep both cores busy where one step alone leaves
// one idle (eslint runs on one thread; jest's tail and the server suite's are one process each):
//   1. prettier and the type check (its `next typegen` writes the apps' .next/ folders, which eslint reads);
//   2. eslint, the unit and integration tests (the server suite on PGlite in two shards, like stage 3's), and
//      the script tests;
//   3. the server suite on PostgreSQL, and the builds (the four apps and the server: a build empties its app's
//      .next/, so none runs beside eslint or jest, which read the apps' folders);
//   4. the browser tests, alone: their frame-gap checks (200 ms) need the cores the sign-in's Argon2id leaves,
//      and in two gate runs with the suites beside them at nice 19 a gap reached 216–233 ms.
// A stage's steps print their output when each ends. It ends with one summary line.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { quietEnv } from './config.mjs';
import { ensureChromium, ensureDependencies, root, runCaptured } from './setup.mjs';
import { localBuildEnv } from './start.mjs';

const results = [];
const started = Date.now();
// The server suite in two shards (each file's servers get scratch databases), on PGlite and then on PostgreSQL.
const serverSuite = ['turbo', 'run', 'test', '--filter=@ente/server', '--', '--test-concurrency=2'];

ensureDependencies();
ensureChromium();

await Promise.all([
  step('prettier', 'npx', ['prettier', '--check', '.']),
  step('type check (TypeScript 7, every workspace)', 'npx', ['turbo', 'run', 'typecheck']),
]);
await Promise.all([
  step('eslint (strict, type-aware, layer rules)', 'npx', ['eslint', '.', '--max-warnings', '0']),
  step('unit and integration tests (jest)', 'npx', ['turbo', 'run', 'test', '--filter=!@ente/server']),
  step('server tests on PGlite', 'npx', serverSuite),
  step('script tests', 'node', ['--test', ...scriptTests()]),
]);
const buildEnv = { ...quietEnv, ...localBuildEnv() };
const [, built] = await Promise.all([
  postgresRun(),
  step('app and server builds', 'npx', ['turbo', 'run', 'build'], { env: buildEnv }),
]);
if (built === 0) {
  // The builds just made are the ones the tests use: neither turbo (--only) nor global setup (E2E_SKIP_BUILD)
  // goes through them again.
  await step('browser tests', 'npx', ['turbo', 'run', 'e2e', '--only'], {
    env: { ...buildEnv, E2E_SKIP_BUILD: '1' },
    echo: true,
  });
} else {
  results.push({ name: 'browser tests (not run: the builds failed)', code: 1, seconds: 0, passed: 0, failed: 0 });
}

summarise();

/**
 * Runs one step, keeps its exit code and the test counts its runner printed, and resolves with the code. Its
 * output is printed when it ends, in one piece, since other steps of its stage may be running (`echo: true`
 * streams it instead, for a step that runs alone).
 */
async function step(name, command, args, options = {}) {
  console.log(`\n━━ ${name}: started ━━`);
  // Its place in the summary is the order the steps start in, not the order they end in.
  const result = { name, code: 1, seconds: 0, passed: 0, failed: 0 };
  results.push(result);
  const begin = Date.now();
  const { code, output } = await runCaptured(command, args, { cwd: root, echo: false, ...options });
  const seconds = (Date.now() - begin) / 1000;
  console.log(`\n━━ ${name} (${seconds.toFixed(1)} s) ━━`);
  if (!options.echo) process.stdout.write(output);
  Object.assign(result, { code, seconds, ...countTests(output) });
  return code;
}

/** The server suite again, on a real PostgreSQL (PGlite is PostgreSQL 18; production runs 15). */
async function postgresRun() {
  if (!existsSync(path.join(root, 'scripts', 'postgres.mjs'))) return;
  const { startPostgres } = await import('./postgres.mjs');
  let postgres;
  try {
    postgres = await startPostgres();
  } catch (error) {
    console.error('Could not start PostgreSQL:', error);
    results.push({ name: 'server tests on PostgreSQL', code: 1, seconds: 0, passed: 0, failed: 0 });
    return;
  }
  try {
    await step(`server tests on PostgreSQL ${postgres.version}`, 'npx', serverSuite, {
      env: { ...quietEnv, DATABASE_URL: postgres.url },
    });
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
  console.log(`Total time ${((Date.now() - started) / 1000).toFixed(0)} s (the steps of a stage overlap)`);
  if (failedSteps.length) console.log(`Failed steps: ${failedSteps.map((r) => r.name).join(', ')}`);
  console.log(
    `${total('passed')} passed, ${total('failed') + (failedSteps.length && !total('failed') ? 1 : 0)} failed`,
  );
  process.exit(failedSteps.length ? 1 : 0);
}
