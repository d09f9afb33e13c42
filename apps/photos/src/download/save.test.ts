// Where a download goes, in jsdom with the browser's own pieces that jsdom lacks put in by the test: with
// showSaveFilePicker the stream is written into the picked file as it comes (nothing gathered), a dismissed picker
// is `cancelled` before any original is opened; without it the bytes are saved through a link under the safe
// name, refused as `tooLarge` above the limit before anything is fetched, and an abort is `cancelled`.
import { afterEach, beforeEach, expect, jest, test } from '@jest/globals';

import { FileType } from '../library/types.ts';
import { downloadOriginal, downloadZip } from './download.ts';
import { BLOB_DOWNLOAD_LIMIT, canStreamToFile, DownloadError, saveStream } from './save.ts';
import type { DownloadableFile } from './zip-stream.ts';

let saved: { name: string; blob: Blob }[];
const blobs = new Map<string, Blob>();

beforeEach(() => {
  saved = [];
  blobs.clear();
  let n = 0;
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:test/${n++}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL: (url: string) => blobs.delete(url),
  });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ name: this.download, blob });
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  delete (globalThis as { showSaveFilePicker?: unknown }).showSaveFilePicker;
});

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const streamOf = (...chunks: number[][]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk));
      controller.close();
    },
  });

function photo(id: number, title: string, fileType: FileType = FileType.image): DownloadableFile {
  return {
    id,
    key: 'k',
    fileHeader: 'h',
    metadata: { title, creationTime: 1e15, modificationTime: 1e15, fileType },
    fileSize: 1000,
  };
}

test('without a file picker the original is saved through a link under its safe title, byte for byte', async () => {
  expect(canStreamToFile()).toBe(false);
  const progress: number[] = [];
  await downloadOriginal(photo(1, 'Trip/../IMG 1.heic'), {
    open: () => Promise.resolve(streamOf([1, 2, 3], [4, 5])),
    onProgress: (p) => progress.push(p.bytesDone),
  });
  expect(saved.map((s) => s.name)).toEqual(['Trip_._IMG 1.heic']);
  expect(await bytesOf(saved[0]?.blob ?? new Blob())).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
  expect(progress).toEqual([3, 5, 5]);
});

test('too large for a Blob is refused before any original is opened', async () => {
  const open = jest.fn(() => Promise.resolve(streamOf([1])));
  await expect(saveStream(open, { name: 'big.zip', estimatedBytes: BLOB_DOWNLOAD_LIMIT + 1 })).rejects.toEqual(
    new DownloadError('tooLarge'),
  );
  expect(open).not.toHaveBeenCalled();
  expect(saved).toEqual([]);
});

test('bytes past the Blob limit error the download as tooLarge whatever the estimate said, and save nothing', async () => {
  // A chunk that says it is the whole limit long: the count is of what the stream hands, not of the estimate.
  const huge = Object.defineProperty(new Uint8Array(1), 'length', { value: BLOB_DOWNLOAD_LIMIT });
  let cancelled = false;
  const lying = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(10));
      controller.enqueue(huge);
    },
    cancel() {
      cancelled = true;
    },
  });
  await expect(saveStream(() => Promise.resolve(lying), { name: 'x.zip', estimatedBytes: 10 })).rejects.toEqual(
    new DownloadError('tooLarge'),
  );
  expect(cancelled).toBe(true);
  expect(saved).toEqual([]);
});

test('an abort while gathering is `cancelled` and saves nothing', async () => {
  const controller = new AbortController();
  const endless = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(new Uint8Array(10));
      controller.abort();
    },
  });
  await expect(
    saveStream(() => Promise.resolve(endless), { name: 'x.bin', estimatedBytes: 10, signal: controller.signal }),
  ).rejects.toEqual(new DownloadError('cancelled'));
  expect(saved).toEqual([]);
});

test('with a file picker the ZIP streams into the picked file; nothing goes through a link', async () => {
  const written: Uint8Array<ArrayBuffer>[] = [];
  const picked: unknown[] = [];
  Object.assign(globalThis, {
    showSaveFilePicker: (options: unknown) => {
      picked.push(options);
      return Promise.resolve({
        createWritable: () =>
          Promise.resolve(new WritableStream<Uint8Array<ArrayBuffer>>({ write: (chunk) => void written.push(chunk) })),
      });
    },
  });
  expect(canStreamToFile()).toBe(true);
  await downloadZip([photo(1, 'a.jpg'), photo(2, 'a.jpg')], 'Summer: 2024', {
    open: () => Promise.resolve(streamOf([1, 2, 3])),
  });
  expect(picked).toEqual([
    {
      suggestedName: 'Summer_ 2024.zip',
      types: [{ description: 'ZIP', accept: { 'application/zip': ['.zip'] } }],
    },
  ]);
  const zip = new TextDecoder('latin1').decode(await bytesOf(new Blob(written)));
  expect(zip.startsWith('PK\u0003\u0004')).toBe(true);
  expect(zip).toContain('a (2).jpg');
  expect(saved).toEqual([]);
});

test('a dismissed picker is `cancelled` and opens no original', async () => {
  Object.assign(globalThis, {
    showSaveFilePicker: () => Promise.reject(new DOMException('The user aborted a request.', 'AbortError')),
  });
  const open = jest.fn(() => Promise.resolve(streamOf([1])));
  await expect(downloadOriginal(photo(1, 'a.jpg'), { open })).rejects.toEqual(new DownloadError('cancelled'));
  expect(open).not.toHaveBeenCalled();
});

test('with a file picker, an original that cannot be opened aborts the picked file and fails', async () => {
  const aborted: unknown[] = [];
  Object.assign(globalThis, {
    showSaveFilePicker: () =>
      Promise.resolve({
        createWritable: () =>
          Promise.resolve(new WritableStream<Uint8Array>({ abort: (reason) => void aborted.push(reason) })),
      }),
  });
  const failure = new Error('no network');
  await expect(downloadOriginal(photo(1, 'a.jpg'), { open: () => Promise.reject(failure) })).rejects.toBe(failure);
  expect(aborted).toEqual([failure]);
});
