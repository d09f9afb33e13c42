/** @jest-environment node */
// The pool of upload workers (worker-pool.ts): reuse of reset workers, ending of the others, at most `keep` idle.
import { expect, test } from '@jest/globals';

import { createWorkerPool } from './worker-pool.ts';

function harness(keep = 2) {
  const started: { id: number; ended: boolean; terminate(): void }[] = [];
  const pool = createWorkerPool(() => {
    const worker = {
      id: started.length + 1,
      ended: false,
      terminate() {
        worker.ended = true;
      },
    };
    started.push(worker);
    return worker;
  }, keep);
  return { pool, started };
}

test('a worker given back reset serves the next file; a new one starts only when none is idle', () => {
  const { pool, started } = harness();
  const first = pool.take();
  expect(first.fresh).toBe(true);
  pool.give(first.worker, true);
  const again = pool.take();
  expect(again).toEqual({ worker: first.worker, fresh: false });
  const second = pool.take();
  expect(second.fresh).toBe(true);
  expect(started).toHaveLength(2);
  expect(started.some((worker) => worker.ended)).toBe(false);
});

test('a worker not reset (cancelled, failed) is ended, never handed out again', () => {
  const { pool } = harness();
  const { worker } = pool.take();
  pool.give(worker, false);
  expect(worker.ended).toBe(true);
  expect(pool.idleCount()).toBe(0);
  expect(pool.take().worker).not.toBe(worker);
});

test('at most `keep` idle workers are kept; endIdle ends them and the next file starts a new one', () => {
  const { pool, started } = harness(2);
  const taken = [pool.take(), pool.take(), pool.take()];
  for (const { worker } of taken) pool.give(worker, true);
  expect(pool.idleCount()).toBe(2);
  expect(started.filter((worker) => worker.ended)).toHaveLength(1);
  pool.endIdle();
  expect(pool.idleCount()).toBe(0);
  expect(started.every((worker) => worker.ended)).toBe(true);
  expect(pool.take().fresh).toBe(true);
});

test('a worker given back twice is kept once', () => {
  const { pool } = harness();
  const { worker } = pool.take();
  pool.give(worker, true);
  pool.give(worker, true);
  expect(pool.idleCount()).toBe(1);
  expect(worker.ended).toBe(false);
});
