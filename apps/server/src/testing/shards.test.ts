// The server suite runs many test files in one process (scripts/test.mjs). That is sound only while each
// file keeps to describe/test blocks at its top level: a top-level hook would run for other files' tests,
// and top-level mutable state or mocks would leak into them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testFiles = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.test.ts'));

describe('test files that share a process', () => {
  test('there are test files to look at', () => {
    assert.ok(testFiles.length > 20);
  });

  test('no file has hooks, suite contexts or mutable state at its top level, nor mocks or env writes anywhere', () => {
    const topLevel = /^(before|after|beforeEach|afterEach)\(|^(export )?(let|var) |^(export )?const \w+ = suite\w*\(/;
    const anywhere = /\bmock\.|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]/;
    const found = testFiles.flatMap((file) =>
      readFileSync(path.join(src, file), 'utf8')
        .split('\n')
        .map((line, index) => ({ line, where: `${file}:${String(index + 1)}` }))
        .filter(({ line }) => topLevel.test(line) || anywhere.test(line))
        .map(({ where, line }) => `${where}: ${line}`),
    );
    assert.deepEqual(found, []);
  });
});
