// The download service worker (public/downloads/sw.js, the real file) and the page's side (stream-download.ts)
// together, in jsdom: the browser's parts jsdom lacks are put in by the test (a MessageChannel from Node, a
// registration whose worker is the script evaluated in a scope of its own, the link's navigation as a fetch event).
// The response is an attachment under the name, its body the ZIP byte for byte, its URL good once; a cancel in the
// browser's downloads or the page's own abort is `cancelled` and stops reading the originals; a page gone silent
// (its tab closed) fails its download, and its unopened link is forgotten, a minute after its last sign.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';

import { afterEach, beforeEach, expect, jest, test } from '@jest/globals';

import { FileType } from '../library/types.ts';
import { downloadOriginal, downloadZip } from './download.ts';
import { readZipEntries } from './live-photo.ts';
import { DownloadError } from './save.ts';
import { READY_TIMEOUT_MS, streamThroughServiceWorker } from './stream-download.ts';
import type { DownloadableFile } from './zip-stream.ts';

const script = readFileSync(path.join(__dirname, '../../public/downloads/sw.js'), 'utf8');

/** What the browser does with a navigation to the download URL: the worker's response, read or cancelled. */
let fetches: { url: string; response: Promise<Response> }[];
let onResponse: (response: Response) => void;

// One worker for the whole file, as a browser keeps one registration (stream-download.ts keeps it too).
const scope = Object.assign(new EventTarget(), {
  skipWaiting: () => Promise.resolve(),
  clients: { claim: () => Promise.resolve() },
});
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the service worker's own script, in its scope
const runWorkerScript = new Function('self', script) as (self: unknown) => void;
runWorkerScript(scope);
const worker = {
  state: 'activated',
  addEventListener: () => undefined,
  postMessage(data: unknown, transfer: unknown[] = []) {
    scope.dispatchEvent(Object.assign(new Event('message'), { data, ports: transfer }));
  },
};

beforeEach(() => {
  fetches = [];
  onResponse = (response) => void response.arrayBuffer();
  Object.assign(globalThis, { MessageChannel, isSecureContext: true });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { register: () => Promise.resolve({ active: worker }) },
  });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const url = new URL(this.getAttribute('href') ?? '', 'https://photos.test').toString();
    let answer: (response: Response) => void = () => undefined;
    const response = new Promise<Response>((resolve) => (answer = resolve));
    fetches.push({ url, response });
    const event = Object.assign(new Event('fetch'), {
      request: new Request(url),
      respondWith: (given: Response) => {
        answer(given);
        onResponse(given);
      },
    });
    scope.dispatchEvent(event);
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

function photo(id: number, title: string): DownloadableFile {
  return {
    id,
    key: 'k',
    fileHeader: 'h',
    metadata: { title, creationTime: 1e15, modificationTime: 1e15, fileType: FileType.image },
  };
}

/** A stream of `count` chunks of 1,000 bytes, recording how far it was read and whether it was cancelled. */
function source(count: number) {
  const state = { sent: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.sent === count) controller.close();
      else controller.enqueue(new Uint8Array(1000).fill(state.sent++));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

test('the ZIP streams through the worker as an attachment, byte for byte, and its URL serves once', async () => {
  const read: { body?: Promise<ArrayBuffer> } = {};
  onResponse = (response) => {
    read.body = response.arrayBuffer();
  };
  const originals = [source(3), source(2)];
  await downloadZip([photo(0, 'a.jpg'), photo(1, 'a.jpg')], 'Été 2024', {
    open: (file) => Promise.resolve(originals[file.id]?.stream ?? new ReadableStream()),
  });
  const response = await fetches[0]?.response;
  expect(fetches[0]?.url).toMatch(/^https:\/\/photos\.test\/downloads\/[0-9a-f-]{36}\/%C3%89t%C3%A9%202024\.zip$/);
  expect(response?.headers.get('Content-Disposition')).toBe("attachment; filename*=UTF-8''%C3%89t%C3%A9%202024.zip");
  expect(response?.headers.get('Content-Type')).toBe('application/octet-stream');
  if (!read.body) throw new Error('the response was not read');
  const entries = await readZipEntries(new Uint8Array(await read.body));
  expect(entries.map((entry) => [entry.name, entry.bytes.length, entry.bytes[0], entry.bytes[2999]])).toEqual([
    ['a.jpg', 3000, 0, 2],
    ['a (2).jpg', 2000, 0, undefined],
  ]);

  // The same URL again: the worker forgot it, and answers 204 No Content, so the tab stays where it is.
  const again = Object.assign(document.createElement('a'), {});
  again.setAttribute('href', new URL(fetches[0]?.url ?? '').pathname);
  again.click();
  const forgotten = await fetches[1]?.response;
  expect(forgotten?.status).toBe(204);
  expect(await forgotten?.text()).toBe('');
});

test('a cancel in the browser’s downloads is `cancelled` and stops reading the original', async () => {
  onResponse = (response) => {
    const reader = response.body?.getReader();
    void reader?.read().then(() => reader.cancel());
  };
  const original = source(1000);
  await expect(downloadOriginal(photo(0, 'big.mov'), { open: () => Promise.resolve(original.stream) })).rejects.toEqual(
    new DownloadError('cancelled'),
  );
  expect(original.state.cancelled).toBe(true);
  expect(original.state.sent).toBeLessThan(1000);
});

test('the page’s abort is `cancelled`, the download errors in the browser and the original is cancelled', async () => {
  const controller = new AbortController();
  let failed: Promise<unknown> | undefined;
  onResponse = (response) => {
    const reader = response.body?.getReader();
    failed = (async () => {
      await reader?.read();
      controller.abort();
      for (;;) if ((await reader?.read())?.done) return 'ended';
    })().catch((e: unknown) => e);
  };
  const original = source(1000);
  await expect(
    downloadOriginal(photo(0, 'big.mov'), { open: () => Promise.resolve(original.stream), signal: controller.signal }),
  ).rejects.toEqual(new DownloadError('cancelled'));
  expect(await failed).toEqual(new Error('the download failed'));
  expect(original.state.cancelled).toBe(true);
});

/** One turn of the real event loop (timers are fake here): a message through a channel of its own. */
const messageTurn = () =>
  new Promise<void>((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.on('message', () => {
      port1.close();
      resolve();
    });
    port2.postMessage(0);
  });

/** What the page posts to the worker, by type, while `during` runs (the worker still answering). */
async function postedDuring<T>(during: (posted: string[]) => Promise<T>, answer = true): Promise<T> {
  const post = worker.postMessage.bind(worker);
  const posted: string[] = [];
  worker.postMessage = (data: unknown, transfer?: unknown[]) => {
    posted.push((data as { type: string }).type);
    if (answer) post(data, transfer);
  };
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
  try {
    return await during(posted);
  } finally {
    jest.useRealTimers();
    worker.postMessage = post;
  }
}

test('the keep-alive runs while the first original is still being opened (Firefox ends an idle worker at 30 s)', async () => {
  await postedDuring(async (posted) => {
    // An original whose fetch takes 35 s, then fails (the rest of the download is the tests above).
    const open = () =>
      new Promise<ReadableStream<Uint8Array>>((_, reject) =>
        setTimeout(() => {
          posted.push('opened');
          reject(new Error('stop here'));
        }, 35_000),
      );
    const answered = streamThroughServiceWorker(open, { name: 'slow.jpg' });
    const failed = expect(answered).rejects.toThrow('stop here');
    // The worker's `ready` comes over a real MessageChannel, before any fake time passes.
    for (let i = 0; i < 5; i++) await messageTurn();
    await jest.advanceTimersByTimeAsync(35_000);
    await failed;
    expect(posted).toEqual(['download', 'ping', 'ping', 'ping', 'opened']);
  });
});

test('a worker that does not take the download in time leaves it to the Blob path, the stream never opened', async () => {
  await postedDuring(async (posted) => {
    const open = jest.fn(() => Promise.resolve(source(1).stream));
    const answered = streamThroughServiceWorker(open, { name: 'a.jpg' });
    await jest.advanceTimersByTimeAsync(READY_TIMEOUT_MS);
    await expect(answered).resolves.toBe(false);
    expect(open).not.toHaveBeenCalled();
    expect(posted).toEqual(['download']);
    expect(fetches).toEqual([]);
  }, false);
});

/** A download handed to the worker by a page that then does nothing more unless the test says (its tab closed). */
async function silentDownload(name: string) {
  const { port1, port2 } = new MessageChannel();
  const id = crypto.randomUUID();
  const ready = new Promise<void>((resolve) => port1.once('message', () => resolve()));
  worker.postMessage({ type: 'download', id, name }, [port2]);
  await ready;
  const open = () => {
    const link = document.createElement('a');
    link.setAttribute('href', `/downloads/${id}/${name}`);
    link.click();
    return fetches.at(-1)?.response;
  };
  return { id, page: port1, open };
}

test('a download whose page falls silent (its tab closed) fails after a minute; the page’s pings keep it going', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
  const { id, page, open } = await silentDownload('a.zip');
  try {
    let outcome: unknown = 'pending';
    onResponse = (response) =>
      void response.arrayBuffer().then(
        () => (outcome = 'ended'),
        (e: unknown) => (outcome = e),
      );
    const response = await open();
    expect(response?.status).toBe(200);
    const step = async (ms: number) => {
      await jest.advanceTimersByTimeAsync(ms);
      for (let i = 0; i < 3; i++) await messageTurn();
    };
    // The pull is posted and never answered; the page's keep-alive at 50 s says it still lives.
    await step(50_000);
    worker.postMessage({ type: 'ping', id });
    await step(55_000);
    expect(outcome).toBe('pending');
    await step(6_000);
    expect(outcome).toEqual(new Error('the page stopped answering'));
  } finally {
    page.close();
    jest.useRealTimers();
  }
});

test('a download link not opened within a minute of the page’s last sign is forgotten (answered 204)', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
  const pinged = await silentDownload('pinged.zip');
  const silent = await silentDownload('silent.zip');
  try {
    await jest.advanceTimersByTimeAsync(40_000);
    worker.postMessage({ type: 'ping', id: pinged.id });
    await jest.advanceTimersByTimeAsync(21_000);
    expect((await silent.open())?.status).toBe(204);
    expect((await pinged.open())?.status).toBe(200);
  } finally {
    pinged.page.close();
    silent.page.close();
    jest.useRealTimers();
  }
});
