// The viewer's original of a file the server says is past the cap is refused before anything is fetched or a
// worker started (the whole original would be gathered in memory); the worker started ahead of the first
// thumbnail is the one worker of the tab.
import { expect, jest, test } from '@jest/globals';

import { originalURL, resetMedia, startMediaWorker } from './media.ts';
import { VIEWER_ORIGINAL_MAX_BYTES } from './read-at-most.ts';

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
