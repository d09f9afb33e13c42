// node --test bench/frame-causes.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { frameCauses, profileSamples, selfSegments } from './frame-causes.mjs';

const main = { pid: 1, tid: 10 };
const task = (name, ts, dur, thread = main) => ({ ph: 'X', name, ts, dur, ...thread });

test('self time goes to the innermost event, under its outermost', () => {
  const segments = selfSegments([
    task('RunTask', 0, 100),
    task('FunctionCall', 10, 50),
    task('MinorGC', 20, 10),
    { ph: 'B', name: 'Layout', ts: 70, ...main },
    { ph: 'E', name: 'Layout', ts: 90, ...main },
  ]);
  const byName = {};
  for (const { name, top, start, end } of segments) {
    assert.equal(top, 'RunTask');
    byName[name] = (byName[name] ?? 0) + end - start;
  }
  assert.deepEqual(byName, { RunTask: 30, FunctionCall: 40, MinorGC: 10, Layout: 20 });
  // Sorted, never overlapping.
  for (let i = 1; i < segments.length; i++) assert.ok(segments[i].start >= segments[i - 1].end);
});

test('samples carry their stack, innermost first, at the profile start plus the deltas', () => {
  const events = [
    { ph: 'P', name: 'Profile', id: '0x1', ...main, ts: 0, args: { data: { startTime: 1000 } } },
    {
      ph: 'P',
      name: 'ProfileChunk',
      id: '0x1',
      pid: 1,
      tid: 99,
      ts: 0,
      args: {
        data: {
          cpuProfile: {
            nodes: [
              { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 } },
              {
                id: 2,
                parent: 1,
                callFrame: { functionName: 'render', url: 'https://x/_next/a.js', lineNumber: 0, columnNumber: 9 },
              },
            ],
            samples: [2, 1],
          },
          timeDeltas: [5, 10],
        },
      },
    },
  ];
  assert.deepEqual(profileSamples(events, 1, 10), [
    { ts: 1005, stack: ['render a.js:1:10', '(root)'] },
    { ts: 1015, stack: ['(root)'] },
  ]);
  assert.deepEqual(profileSamples(events, 1, 11), []);
});

test('only the frames over the bound are broken down, and idle main-thread time is counted', () => {
  const events = [
    { ph: 'M', name: 'thread_name', pid: 1, tid: 20, args: { name: 'Compositor' } },
    task('RunTask', 0, 10_000),
    task('UpdateLayoutTree', 1_000, 4_000),
    task('RunTask', 20_000, 40_000),
    task('FunctionCall', 20_000, 30_000),
    task('Decode Image', 30_000, 5_000, { pid: 1, tid: 20 }),
    task('Elsewhere', 30_000, 5_000, { pid: 2, tid: 10 }),
  ];
  const intervals = [
    { start: 0, end: 16_000 },
    { start: 16_000, end: 66_000 },
  ];
  const { over, severe, worst } = frameCauses(events, intervals, { mainPid: 1, mainTid: 10, severeMs: 45 });
  assert.equal(over.frames, 1);
  assert.equal(over.totalMs, 50);
  assert.deepEqual(
    over.mainThreadByCause.map(({ name, ms }) => [name, ms]),
    [
      ['script', 30],
      ['other', 10],
      ['(main thread idle)', 10],
    ],
  );
  assert.deepEqual(over.otherThreadsBusyMs, [{ name: 'Compositor', ms: 5 }]);
  assert.equal(severe.frames, 1);
  assert.equal(worst[0].ms, 16);
  assert.deepEqual(
    worst[0].mainThread.map(({ name, ms }) => [name, ms]),
    [
      ['RunTask › RunTask', 6],
      ['(main thread idle)', 6],
      ['RunTask › UpdateLayoutTree', 4],
    ],
  );
});
