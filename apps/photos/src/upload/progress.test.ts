/** @jest-environment node */
// Progress accounting in bytes of work (progress.ts).
import { expect, test } from '@jest/globals';

import { fileWork, overallProgress, workBefore } from './progress.ts';

test('a file is two passes, three when it hashes first; each stage starts where the previous ended', () => {
  expect(fileWork(100, false)).toBe(200);
  expect(fileWork(100, true)).toBe(300);
  expect(fileWork(0, false)).toBe(2);
  expect([
    workBefore('hashing', 100, true),
    workBefore('encrypting', 100, true),
    workBefore('uploading', 100, true),
  ]).toEqual([0, 100, 200]);
  expect([
    workBefore('encrypting', 100, false),
    workBefore('uploading', 100, false),
    workBefore('done', 100, false),
  ]).toEqual([0, 100, 200]);
});

test('overall: done files count whole, running ones their done (capped), failed and cancelled nothing', () => {
  expect(
    overallProgress([
      { status: 'done', done: 3, total: 200 },
      { status: 'uploading', done: 250, total: 200 },
      { status: 'encrypting', done: 50, total: 200 },
      { status: 'queued', done: 0, total: 200 },
      { status: 'failed', done: 120, total: 200 },
      { status: 'cancelled', done: 10, total: 200 },
    ]),
  ).toEqual({ done: 450, total: 800 });
});
