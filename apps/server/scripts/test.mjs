// Runs every src/**/*.test.ts with Node's test runner (Node 20's --test has no glob support).
// The files run in one process per shard, one file after another, rather than one process per file: a new
// process pays about a second of CPU to load tsx, the server's modules and PGlite's WebAssembly, which for
// 44 files was a third of the suite. Every test file only declares describe/test blocks at its top level (no
// hooks or state outside them), so sharing a process changes nothing for them. One shard unless a
// --test-concurrency=N among the extra arguments says otherwise (the last one wins): N shards at once, the
// files dealt out by size. Files named among the arguments run instead of all; other flags are passed to
// node (e.g. --test-name-pattern=SRP).
// A single file (or several) can still be run alone: `node --import tsx --test src/routes/srp.test.ts`.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extra = process.argv.slice(2);
if (extra.includes('--test')) throw new Error('--test would run every file twice; name files or flags only');
// Files named among the arguments run instead of all of them.
const named = extra.filter((arg) => !arg.startsWith('-'));
const files = named.length
  ? named
  : readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => path.join('src', file))
      .sort();

const concurrencyFlag = extra.filter((arg) => arg.startsWith('--test-concurrency=')).at(-1);
const shardCount = Math.max(1, Math.min(files.length, Number(concurrencyFlag?.split('=')[1] ?? 1) || 1));
const nodeArgs = extra.filter((arg) => arg.startsWith('-') && !arg.startsWith('--test-concurrency='));

// Largest first onto the lightest shard, so the shards end at about the same time.
const sized = files.map((file) => ({ file, bytes: statSync(path.resolve(root, file)).size }));
const shards = Array.from({ length: shardCount }, () => ({ files: [], bytes: 0 }));
for (const { file, bytes } of sized.sort((a, b) => b.bytes - a.bytes)) {
  const lightest = shards.reduce((min, shard) => (shard.bytes < min.bytes ? shard : min));
  lightest.files.push(file);
  lightest.bytes += bytes;
}
for (const shard of shards) shard.files.sort();

const codes = await Promise.all(shards.map((shard) => runShard(shard.files)));
process.exit(codes.every((code) => code === 0) ? 0 : 1);

/** One process that imports its files in order; with several shards, each one's output is printed when it ends. */
function runShard(shardFiles) {
  const alone = shardCount === 1;
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test-reporter=spec', ...nodeArgs, path.join('scripts', 'test-shard.mjs'), ...shardFiles],
      { cwd: root, stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    if (!alone) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    child.on('close', (code, signal) => {
      if (!alone) process.stdout.write(output);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
