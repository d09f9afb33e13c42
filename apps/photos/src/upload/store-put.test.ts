/** @jest-environment node */
// The object-store request's retries (store-put.ts), fetch faked and the pause immediate.
import { afterEach, expect, jest, test } from '@jest/globals';

import { putWithRetries } from './store-put.ts';

afterEach(() => {
  jest.restoreAllMocks();
});

function answers(...steps: (number | 'offline')[]) {
  const fetchMock = jest.spyOn(globalThis, 'fetch');
  for (const step of steps) {
    if (step === 'offline') fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    else fetchMock.mockResolvedValueOnce(new Response('', { status: step }));
  }
  return fetchMock;
}
const put = () =>
  putWithRetries(
    'https://store.test/o',
    () => ({ method: 'PUT' }),
    'PUT',
    () => Promise.resolve(),
  );

test('a 5xx, a 429 or no answer is tried again, up to three times', async () => {
  const fetchMock = answers(503, 'offline', 200);
  expect((await put()).status).toBe(200);
  expect(fetchMock).toHaveBeenCalledTimes(3);
  answers(429, 200);
  expect((await put()).status).toBe(200);
});

test('a 4xx fails at once as a server error', async () => {
  const fetchMock = answers(403);
  await expect(put()).rejects.toMatchObject({ name: 'UploadError', reason: 'server' });
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test('three failures: network when the last had no answer, else server', async () => {
  answers(500, 500, 'offline');
  await expect(put()).rejects.toMatchObject({ reason: 'network' });
  answers('offline', 'offline', 502);
  await expect(put()).rejects.toMatchObject({ reason: 'server' });
});

test('waits between attempts, longer each time', async () => {
  answers(500, 500, 200);
  const pauses: number[] = [];
  await putWithRetries(
    'https://store.test/o',
    () => ({ method: 'PUT' }),
    'PUT',
    (attempt) => {
      pauses.push(attempt);
      return Promise.resolve();
    },
  );
  expect(pauses).toEqual([1, 2]);
});
