/** @jest-environment node */
// The queue's state machine (queue.ts): concurrency, order, progress, cancel (queued and running), retry,
// typed errors, snapshots and idleness, with a `run` the test settles by hand.
import { expect, test } from '@jest/globals';

import { createUploadQueue, type UploadRunControl } from './queue.ts';
import { UploadError, type UploadOutcome } from './types.ts';

const target = { collectionID: 1, collectionKey: 'k' };
const files = (...sizes: number[]) => sizes.map((size, i) => new File([new Uint8Array(size)], `f${i}.jpg`));

function harness(concurrency = 2, small?: { files: number; bytes: number }) {
  const runs: { name: string; control: UploadRunControl; resolve(o: UploadOutcome): void; reject(e: unknown): void }[] =
    [];
  const queue = createUploadQueue({
    concurrency,
    ...(small ? { small } : {}),
    run: (job, control) =>
      new Promise<UploadOutcome>((resolve, reject) => {
        runs.push({ name: job.file.name, control, resolve, reject });
        control.signal.addEventListener('abort', () => reject(new UploadError('cancelled')));
      }),
  });
  const statuses = () => queue.snapshot().items.map((item) => item.status);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { queue, runs, statuses, settle };
}
const uploaded = { kind: 'uploaded', file: {} } as UploadOutcome;

test('small files run more at once, up to `small.files` while they hold at most `small.bytes` together', async () => {
  const { queue, runs, settle } = harness(2, { files: 4, bytes: 100 });
  queue.add(files(30, 30, 30, 30, 30), target);
  expect(runs.map((run) => run.name)).toEqual(['f0.jpg', 'f1.jpg', 'f2.jpg']);
  runs[0]!.resolve(uploaded);
  await settle();
  expect(runs.map((run) => run.name)).toEqual(['f0.jpg', 'f1.jpg', 'f2.jpg', 'f3.jpg']);
});

test('a large file takes one of the `concurrency` places, and the small ones after it wait in order', async () => {
  const { queue, runs, settle } = harness(2, { files: 4, bytes: 100 });
  queue.add(files(10, 500, 10, 10), target);
  expect(runs.map((run) => run.name)).toEqual(['f0.jpg', 'f1.jpg']);
  runs[1]!.resolve(uploaded);
  await settle();
  // 10 bytes running: the next two fit within the bytes.
  expect(runs.map((run) => run.name)).toEqual(['f0.jpg', 'f1.jpg', 'f2.jpg', 'f3.jpg']);
});

test('runs at most `concurrency` files, in order, and the next when one ends', async () => {
  const { queue, runs, statuses, settle } = harness(2);
  queue.add(files(10, 10, 10), target);
  expect(runs.map((run) => run.name)).toEqual(['f0.jpg', 'f1.jpg']);
  expect(statuses()).toEqual(['encrypting', 'encrypting', 'queued']);
  runs[0]!.resolve(uploaded);
  await settle();
  expect(runs.map((run) => run.name)).toEqual(['f0.jpg', 'f1.jpg', 'f2.jpg']);
  expect(statuses()).toEqual(['done', 'encrypting', 'encrypting']);
  expect(queue.snapshot().items[0]!.outcome).toBe(uploaded);
});

test('status and progress from run; overall progress in bytes; snapshots change only on change', async () => {
  const { queue, runs, settle } = harness(1);
  const [id] = queue.add(files(100, 50), target);
  const before = queue.snapshot();
  expect(queue.snapshot()).toBe(before);
  expect(before.progress).toEqual({ done: 0, total: 300 });
  runs[0]!.control.setProgress(0, 300);
  runs[0]!.control.setStatus('hashing');
  runs[0]!.control.setProgress(120);
  const during = queue.snapshot();
  expect(during).not.toBe(before);
  expect(during.items.find((item) => item.id === id)).toMatchObject({ status: 'hashing', done: 120, total: 300 });
  expect(during.progress).toEqual({ done: 120, total: 400 });
  runs[0]!.resolve(uploaded);
  await settle();
  expect(queue.snapshot().progress).toEqual({ done: 300, total: 400 });
});

test('a failure is typed; an unknown error becomes reason unknown; retry runs it again', async () => {
  const { queue, runs, statuses, settle } = harness(2);
  const [a, b] = queue.add(files(1, 1), target);
  runs[0]!.reject(new UploadError('storageLimit'));
  runs[1]!.reject(new TypeError('boom'));
  await settle();
  expect(statuses()).toEqual(['failed', 'failed']);
  expect(queue.snapshot().items.map((item) => item.error?.reason)).toEqual(['storageLimit', 'unknown']);
  expect(queue.snapshot().progress).toEqual({ done: 0, total: 0 });
  queue.retry(a!);
  expect(statuses()).toEqual(['encrypting', 'failed']);
  queue.retryFailed();
  expect(runs).toHaveLength(4);
  runs[2]!.resolve(uploaded);
  runs[3]!.resolve(uploaded);
  await settle();
  expect(statuses()).toEqual(['done', 'done']);
  expect(queue.snapshot().items.every((item) => item.error === undefined)).toBe(true);
  queue.retry(b!); // a finished file is not run again
  expect(runs).toHaveLength(4);
});

test('cancel: a queued file never runs; a running one is aborted; late progress is ignored; cancelAll', async () => {
  const { queue, runs, statuses, settle } = harness(1);
  const [a, b] = queue.add(files(1, 1, 1), target);
  queue.cancel(b!);
  expect(statuses()).toEqual(['encrypting', 'cancelled', 'queued']);
  const first = runs[0]!;
  queue.cancel(a!);
  expect(first.control.signal.aborted).toBe(true);
  first.control.setProgress(999);
  await settle();
  expect(statuses()).toEqual(['cancelled', 'cancelled', 'encrypting']);
  expect(queue.snapshot().items[0]!.done).toBe(0);
  expect(queue.snapshot().items[0]!.error?.reason).toBe('cancelled');
  queue.add(files(1), target);
  queue.cancelAll();
  await settle();
  expect(statuses()).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
  expect(runs.map((run) => run.name)).toEqual(['f0.jpg', 'f2.jpg']);
  await queue.whenIdle();
});

test('a run that finishes after its file was cancelled and retried does not overwrite the retry', async () => {
  const { queue, runs, statuses, settle } = harness(1);
  const [a] = queue.add(files(1), target);
  const stale = runs[0]!;
  queue.cancel(a!);
  queue.retry(a!);
  await settle();
  expect(runs).toHaveLength(2);
  stale.resolve(uploaded);
  await settle();
  expect(statuses()).toEqual(['encrypting']);
  runs[1]!.resolve({ kind: 'skipped', existingFileID: 3 });
  await settle();
  expect(queue.snapshot().items[0]).toMatchObject({ status: 'done', outcome: { kind: 'skipped', existingFileID: 3 } });
});

test('listeners hear changes; whenIdle resolves when nothing is pending; clearFinished forgets ended files', async () => {
  const { queue, runs, settle } = harness(2);
  let heard = 0;
  const unsubscribe = queue.subscribe(() => heard++);
  queue.add(files(1, 1), target);
  expect(heard).toBeGreaterThan(0);
  let idle = false;
  void queue.whenIdle().then(() => (idle = true));
  runs[0]!.resolve(uploaded);
  await settle();
  expect(idle).toBe(false);
  expect(queue.snapshot().pending).toBe(1);
  runs[1]!.resolve(uploaded);
  await settle();
  expect(idle).toBe(true);
  queue.clearFinished();
  expect(queue.snapshot().items).toEqual([]);
  unsubscribe();
  const count = heard;
  queue.add(files(1), target);
  expect(heard).toBe(count);
});

test('onIdle is heard once each time the queue runs dry, not on progress, and after a cancelled run stops', async () => {
  const { queue, runs, settle } = harness(2);
  let idle = 0;
  const stop = queue.onIdle(() => idle++);
  queue.add(files(1, 1), target);
  runs[0]!.control.setProgress(1, 2);
  runs[0]!.resolve(uploaded);
  await settle();
  expect(idle).toBe(0);
  runs[1]!.control.setProgress(1, 2);
  runs[1]!.resolve(uploaded);
  await settle();
  expect(idle).toBe(1);
  queue.clearFinished();
  expect(idle).toBe(1);

  // Cancelled: nothing is pending at once, but the queue is idle only once the aborted run has stopped.
  let stopRun: () => void = () => undefined;
  const slow = createUploadQueue({
    run: () =>
      new Promise<UploadOutcome>((_resolve, reject) => {
        stopRun = () => reject(new UploadError('cancelled'));
      }),
  });
  let slowIdle = 0;
  slow.onIdle(() => slowIdle++);
  slow.add(files(1), target);
  slow.cancelAll();
  expect(slow.snapshot().pending).toBe(0);
  expect(slowIdle).toBe(0);
  stopRun();
  await settle();
  expect(slowIdle).toBe(1);

  stop();
  queue.add(files(1), target);
  runs[2]!.resolve(uploaded);
  await settle();
  expect(idle).toBe(1);
  await queue.whenIdle();
});

test('a live photo is one item: its image as the file, its video beside it, the work of both', () => {
  const { queue, runs } = harness(1);
  const [image, video] = files(100, 50);
  queue.add([{ image: image!, video: video! }], target);
  expect(queue.snapshot().items).toMatchObject([{ file: image, video, total: 300 }]);
  expect(runs.map((run) => run.name)).toEqual(['f0.jpg']);
});

test('onItemEnd hears each item once per end (done, failed, cancelled), never a progress tick or a start', async () => {
  const { queue, runs, settle } = harness(3);
  const ended: string[] = [];
  const stop = queue.onItemEnd((item) => ended.push(`${item.file.name}:${item.status}`));
  const [, , third] = queue.add(files(1, 1, 1), target);
  runs[0]!.control.setProgress(1, 2);
  runs[0]!.control.setStatus('uploading');
  expect(ended).toEqual([]);
  runs[0]!.resolve(uploaded);
  runs[1]!.reject(new UploadError('network'));
  queue.cancel(third!);
  await settle();
  expect(ended.sort()).toEqual(['f0.jpg:done', 'f1.jpg:failed', 'f2.jpg:cancelled']);
  // A retried file ends again; the ones that had ended are not heard a second time.
  queue.retryFailed();
  runs[3]!.resolve(uploaded);
  await settle();
  expect(ended).toEqual(['f0.jpg:done', 'f1.jpg:failed', 'f2.jpg:cancelled', 'f1.jpg:done']);
  stop();
  queue.retry(third!);
  runs[4]!.resolve(uploaded);
  await settle();
  expect(ended).toHaveLength(4);
});
