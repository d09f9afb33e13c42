// Runs every src/**/*.test.ts with Node's test runner (Node 20's --test has no glob support).
// Files run one at a time (each starts its own server, and two cores are the target machine) unless a later
// --test-concurrency=N among the extra arguments says otherwise (the last one wins).
// Extra arguments are passed to node (e.g. --test-name-pattern=SRP).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const files = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => path.join('src', file))
  .sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', ...process.argv.slice(2), ...files],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
