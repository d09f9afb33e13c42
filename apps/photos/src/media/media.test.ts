// The viewer's original of a file the server says is past the cap is refused before anything is fetched or a
// worker started (the whole original would be gathered in memory); the worker started ahead of the first
// thumbnail is the one worker of the tab. A request that spans a reset (logout, a public album's routes) brings
// nothing into the new worker or LRU, and does not end the entry of a newer request for the same thumbnail. A
// thumbnail's object URL is the worker's: the page makes none, and the URLs the LRU lets go of go back to the worker
// in one message, none at a reset (the worker's end revokes them). While the window scrolls fast, thumbnails are asked
// of the worker from its cache only (`mayFetch: false`), and fetched again once the scroll has been still.
import { expect, jest, test } from '@jest/globals';

import { answeringWorker } from '../components/testing/media-worker.ts';
import { keptThumbnailURL, originalURL, resetMedia, setMediaRoutes, startMediaWorker, thumbnailURL } from './media.ts';
import { VIEWER_ORIGINAL_MAX_BYTES } from './read-at-most.ts';
import { QUIET_MS } from './scroll-pace.ts';

test('an original past VIEWER_ORIGINAL_MAX_BYTES is refused with MediaError tooLarge, nothing fetched', async () => {
  const fetching = jest.fn();
  Object.assign(globalThis, { fetch: fetching, Worker: jest.fn() });
  const file = { id: 1, key: 'k', fileHeader: 'h', fileSize: VIEWER_ORIGINAL_MAX_BYTES + 1 };
  await expect(originalURL(file)).rejects.toMatchObject({ name: 'MediaError', reason: 'tooLarge' });
  expect(fetching).not.toHaveBeenCalled();
  expect(Worker).not.toHaveBeenCalled();
});

test('startMediaWorker starts the one media worker ahead of the first thumbnail, once however often it is called', () => {
  const worker = jest.fn((..._args: unknown[]) => ({
    addEventListener: jest.fn(),
    postMessage: jest.fn(),
    terminate: jest.fn(),
  }));
  Object.assign(globalThis, { Worker: worker });
  startMediaWorker();
  startMediaWorker();
  expect(worker).toHaveBeenCalledTimes(1);
  expect(worker).toHaveBeenCalledWith(expect.any(URL), { type: 'module', name: 'ente-media' });
  resetMedia();
});

/** Routes whose URLs come when the test says, each named after the routes. */
function heldRoutes(name: string) {
  const held: (() => void)[] = [];
  const objectURL = jest.fn(
    (kind: 'preview' | 'download', fileID: number) =>
      new Promise<string>((resolve) => held.push(() => resolve(`https://${name}.test/${kind}/${fileID}`))),
  );
  return { routes: { objectURL, cacheThumbnails: false }, release: () => held.shift()?.() };
}

const file = { id: 3, key: 'k', thumbnailHeader: 'th' };

test('a thumbnail asked for before a reset brings nothing into the new worker or LRU', async () => {
  const asked = answeringWorker();
  const before = heldRoutes('before');
  setMediaRoutes(before.routes);
  const old = thumbnailURL(file);
  setMediaRoutes(heldRoutes('after').routes);
  before.release();
  await expect(old).rejects.toThrow('media reset');
  expect(asked).toEqual([]);
  expect(keptThumbnailURL(file)).toBeUndefined();
  setMediaRoutes(undefined);
});

test('an older request for a thumbnail, ending after a reset, leaves the newer one shared', async () => {
  const asked = answeringWorker();
  const before = heldRoutes('before');
  const after = heldRoutes('after');
  setMediaRoutes(before.routes);
  const old = thumbnailURL(file);
  setMediaRoutes(after.routes);
  const current = thumbnailURL(file);
  before.release();
  await expect(old).rejects.toThrow('media reset');
  // Asked again while the newer request still waits: the same request, not a second fetch.
  const again = thumbnailURL(file);
  after.release();
  expect(await again).toBe(await current);
  expect(after.routes.objectURL).toHaveBeenCalledTimes(1);
  expect(asked).toEqual(['https://after.test/preview/3']);
  expect(keptThumbnailURL(file)).toBe(await current);
  setMediaRoutes(undefined);
});

test("a thumbnail's URL is made by the worker; the LRU's evictions are revoked there in one message, none at a reset", async () => {
  const revoked: string[][] = [];
  answeringWorker(revoked);
  const pageMade = jest.spyOn(URL, 'createObjectURL');
  setMediaRoutes({
    objectURL: (kind, id) => Promise.resolve(`https://api.test/${kind}/${id}`),
    cacheThumbnails: false,
  });
  const files = Array.from({ length: 503 }, (_, index) => ({ id: index + 1, key: 'k', thumbnailHeader: 'th' }));
  const urls = await Promise.all(files.map((each) => thumbnailURL(each)));
  expect(pageMade).not.toHaveBeenCalled();
  expect(new Set(urls).size).toBe(503);
  await new Promise((resolve) => setTimeout(resolve, 0));
  // 500 kept: the three least recently used, in one batch.
  expect(revoked).toEqual([urls.slice(0, 3)]);
  expect(keptThumbnailURL(files[0]!)).toBeUndefined();
  expect(keptThumbnailURL(files[502]!)).toBe(urls[502]);
  setMediaRoutes(undefined);
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(revoked).toHaveLength(1);
  expect(keptThumbnailURL(files[502]!)).toBeUndefined();
});

test('while the window scrolls fast a thumbnail is asked of the worker from the cache only; once still, fetched', async () => {
  const requests: unknown[] = [];
  answeringWorker([], requests);
  setMediaRoutes({ objectURL: (kind, id) => Promise.resolve(`https://api.test/${kind}/${id}`), cacheThumbnails: true });
  const thumbnail = (id: number) => thumbnailURL({ id, key: 'k', thumbnailHeader: 'th' });
  await thumbnail(1);
  // The page's clock and timers faked (the worker answers in microtasks), so that the pace does not depend on the load.
  jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  try {
    // A screen every 10 ms for 80 ms: far above the pace at which fetches are held.
    for (let step = 1; step <= 9; step++) {
      Object.defineProperty(window, 'scrollY', { value: step * window.innerHeight, configurable: true });
      window.dispatchEvent(new Event('scroll'));
      jest.advanceTimersByTime(10);
    }
    await thumbnail(2);
    jest.advanceTimersByTime(QUIET_MS);
    await thumbnail(3);
  } finally {
    jest.useRealTimers();
  }
  expect(requests).toEqual([
    expect.objectContaining({ fileID: 1, mayFetch: true }),
    expect.objectContaining({ fileID: 2, mayFetch: false }),
    expect.objectContaining({ fileID: 3, mayFetch: true }),
  ]);
  setMediaRoutes(undefined);
});
