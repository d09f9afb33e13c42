/** @jest-environment node */
// Whole reads of untrusted bytes stop at their cap: the stream is no longer read, and the error is the caller's.
import { expect, test } from '@jest/globals';

import { capBytes, readAtMost } from './read-at-most.ts';

/** An endless stream of 1,000-byte chunks, counting how many were pulled. */
function endless() {
  const counted = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      counted.pulled += 1;
      controller.enqueue(new Uint8Array(1000).fill(counted.pulled));
    },
    cancel() {
      counted.cancelled = true;
    },
  });
  return { stream, counted };
}

test('readAtMost gives the bytes within the cap, and stops reading with the given error past it', async () => {
  const within = new Blob([new Uint8Array([1, 2]), new Uint8Array([3])]).stream();
  expect(await readAtMost(within, 3, () => new Error('too large'))).toEqual(new Uint8Array([1, 2, 3]));
  const { stream, counted } = endless();
  await expect(readAtMost(stream, 10_500, () => new Error('too large'))).rejects.toThrow('too large');
  expect(counted.cancelled).toBe(true);
  expect(counted.pulled).toBeLessThan(15);
});

test('capBytes passes bytes up to the cap, then errors the stream', async () => {
  const within = new Blob([new Uint8Array(3000)]).stream().pipeThrough(capBytes(3000, () => new Error('too large')));
  expect((await new Response(within).arrayBuffer()).byteLength).toBe(3000);
  const { stream, counted } = endless();
  const capped = stream.pipeThrough(capBytes(10_500, () => new Error('too large')));
  await expect(new Response(capped).arrayBuffer()).rejects.toThrow('too large');
  expect(counted.pulled).toBeLessThan(15);
});
