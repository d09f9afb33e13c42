import { DecryptionError } from '@ente/crypto/errors.ts';

import { fileAt } from '../components/testing/files.ts';
import { MediaError } from '../media/errors.ts';
import type { DownloadOptions } from './download.ts';
import { Downloads, type DownloadRunners } from './downloads.ts';
import { DownloadError } from './save.ts';

/** Runners whose downloads the test drives: each call's options, and its promise's resolve and reject. */
function driven() {
  const calls: { kind: 'zip' | 'original'; options: DownloadOptions; end: () => void; fail: (e: unknown) => void }[] =
    [];
  const run = (kind: 'zip' | 'original', options: DownloadOptions) =>
    new Promise<void>((resolve, reject) => calls.push({ kind, options, end: resolve, fail: reject }));
  const runners: DownloadRunners = {
    zip: (_files, _name, options) => run('zip', options),
    original: (_file, options) => run('original', options),
  };
  return { calls, downloads: new Downloads(runners) };
}

const files = [1, 2, 3].map((id) => ({ ...fileAt(id, new Date(2025, 0, id)), fileSize: 1017 }));

test('a ZIP: running with its progress and the file being read, the files left out and why, then done', async () => {
  const { calls, downloads } = driven();
  const changes = jest.fn();
  downloads.subscribe(changes);
  const ended = downloads.start(files, 'Holiday');
  const [call] = calls;
  expect(call?.kind).toBe('zip');
  expect(downloads.snapshot()).toEqual([
    {
      id: 1,
      name: 'Holiday.zip',
      status: 'running',
      progress: { filesDone: 0, filesTotal: 3, bytesDone: 0, bytesTotal: 3000 },
      skipped: [],
    },
  ]);
  call?.options.onFile?.(files[0]!);
  call?.options.onProgress?.({ filesDone: 0, filesTotal: 3, bytesDone: 500, bytesTotal: 3000 });
  expect(downloads.snapshot()[0]).toMatchObject({ current: 'IMG_1.jpg', progress: { bytesDone: 500 } });
  call?.options.onSkip?.(files[1]!, new MediaError('notFound'));
  call?.options.onSkip?.(files[2]!, new DecryptionError('bad'));
  call?.end();
  await ended;
  expect(downloads.snapshot()[0]).toMatchObject({
    status: 'done',
    current: undefined,
    skipped: [
      { title: 'IMG_2.jpg', reason: 'notFound' },
      { title: 'IMG_3.jpg', reason: 'damaged' },
    ],
  });
  expect(changes).toHaveBeenCalled();
});

test('one file is saved as its original under its title', async () => {
  const { calls, downloads } = driven();
  const ended = downloads.start([files[0]!], 'ignored');
  expect(calls[0]?.kind).toBe('original');
  expect(downloads.snapshot()[0]?.name).toBe('IMG_1.jpg');
  calls[0]?.end();
  await ended;
  expect(downloads.snapshot()[0]?.status).toBe('done');
});

test('cancel aborts the download, which then reads cancelled; a file picker dismissed leaves no trace', async () => {
  const { calls, downloads } = driven();
  const ended = downloads.start(files, 'Holiday');
  const signal = calls[0]?.options.signal;
  calls[0]?.options.onFile?.(files[0]!);
  downloads.cancel(1);
  expect(signal?.aborted).toBe(true);
  calls[0]?.fail(new DownloadError('cancelled'));
  await ended;
  expect(downloads.snapshot()[0]?.status).toBe('cancelled');

  const dismissed = downloads.start(files, 'Other');
  calls[1]?.fail(new DownloadError('cancelled'));
  await dismissed;
  expect(downloads.snapshot().map((task) => task.name)).toEqual(['Holiday.zip']);
});

test('a failure says why; clear forgets what ended; a reset (logout) cancels and forgets everything', async () => {
  const { calls, downloads } = driven();
  const failing = downloads.start(files, 'A');
  const tooLarge = downloads.start(files, 'B');
  void downloads.start(files, 'C');
  calls[0]?.fail(new MediaError('network'));
  calls[1]?.fail(new DownloadError('tooLarge'));
  await Promise.all([failing, tooLarge]);
  expect(downloads.snapshot().map(({ status, error }) => [status, error])).toEqual([
    ['failed', 'network'],
    ['failed', 'tooLarge'],
    ['running', undefined],
  ]);
  downloads.clearFinished();
  expect(downloads.snapshot().map((task) => task.name)).toEqual(['C.zip']);
  downloads.reset();
  expect(calls[2]?.options.signal?.aborted).toBe(true);
  expect(downloads.snapshot()).toEqual([]);
});

test('retry starts a failed or cancelled download again with the same files and name; a done one stays', async () => {
  const { calls, downloads } = driven();
  const failing = downloads.start(files, 'Summer');
  calls[0]?.fail(new MediaError('network'));
  await failing;
  expect(downloads.snapshot().map(({ id, status }) => [id, status])).toEqual([[1, 'failed']]);

  const again = downloads.retry(1);
  // In its place, a new download of the same files under the same name.
  expect(calls).toHaveLength(2);
  expect(downloads.snapshot().map(({ id, name, status, progress }) => [id, name, status, progress.filesTotal])).toEqual(
    [[2, 'Summer.zip', 'running', 3]],
  );
  calls[1]?.end();
  await again;
  expect(downloads.snapshot()[0]?.status).toBe('done');
  await downloads.retry(2);
  await downloads.retry(99);
  expect(calls).toHaveLength(2);

  const one = downloads.start([files[0]!], 'ignored');
  calls[2]?.options.onFile?.(files[0]!);
  downloads.cancel(3);
  calls[2]?.fail(new DownloadError('cancelled'));
  await one;
  void downloads.retry(3);
  expect(calls[3]?.kind).toBe('original');
  expect(downloads.snapshot().map(({ id, name, status }) => [id, name, status])).toEqual([
    [2, 'Summer.zip', 'done'],
    [4, 'IMG_1.jpg', 'running'],
  ]);
  // Cleared, a failed download is no longer there to try again.
  calls[3]?.fail(new MediaError('server'));
  await new Promise((resolve) => setTimeout(resolve, 0));
  downloads.clearFinished();
  await downloads.retry(4);
  expect(calls).toHaveLength(4);
});
