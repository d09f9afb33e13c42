// The thumbnail request queue (request-queue.ts): at most `concurrency` started at once; the newest batch first and,
// within one batch, the order asked; a request whose callers all let go before it started is never started; one
// request per key, shared; clear rejects everyone waiting.
import { expect, test } from '@jest/globals';

import { requestQueue } from './request-queue.ts';

/** A start function per key whose promise the test settles, and the keys in the order they were started. */
function jobs() {
  const started: string[] = [];
  const settle = new Map<string, { resolve(value: string): void; reject(error: Error): void }>();
  const start = (key: string) => () => {
    started.push(key);
    return new Promise<string>((resolve, reject) => settle.set(key, { resolve, reject }));
  };
  const finish = async (key: string) => {
    settle.get(key)?.resolve(`value of ${key}`);
    // The queue hands the place on once the promise's reactions ran.
    await Promise.resolve();
    await Promise.resolve();
  };
  return { started, start, finish };
}

const nextBatch = () => Promise.resolve();

test('at most `concurrency` at once; the newest batch first, and within a batch the order asked', async () => {
  const queue = requestQueue<string>(2);
  const { started, start, finish } = jobs();
  const results = ['a', 'b', 'c', 'd'].map((key) => queue.get(key, start(key)));
  await nextBatch();
  // A later batch (the rows that came into view next).
  const later = ['e', 'f'].map((key) => queue.get(key, start(key)));
  expect(started).toEqual(['a', 'b']);
  expect([queue.running, queue.waiting]).toEqual([2, 4]);
  await finish('a');
  expect(started).toEqual(['a', 'b', 'e']);
  await finish('b');
  await finish('e');
  expect(started).toEqual(['a', 'b', 'e', 'f', 'c']);
  await finish('f');
  await finish('c');
  await finish('d');
  expect(started).toEqual(['a', 'b', 'e', 'f', 'c', 'd']);
  await expect(Promise.all([...results, ...later])).resolves.toEqual(
    ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => `value of ${key}`),
  );
});

test('a request let go of before it started is never started, and its caller gets an AbortError', async () => {
  const queue = requestQueue<string>(1);
  const { started, start, finish } = jobs();
  const first = queue.get('a', start('a'));
  const gone = new AbortController();
  const scrolledPast = queue.get('b', start('b'), gone.signal);
  const stays = queue.get('c', start('c'));
  gone.abort();
  await expect(scrolledPast).rejects.toMatchObject({ name: 'AbortError' });
  expect(queue.waiting).toBe(1);
  await finish('a');
  await finish('c');
  expect(started).toEqual(['a', 'c']);
  await expect(first).resolves.toBe('value of a');
  await expect(stays).resolves.toBe('value of c');
  // Already aborted: not even queued.
  await expect(queue.get('d', start('d'), AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  expect(queue.waiting).toBe(0);
});

test('one request per key: shared, kept while one caller still wants it, asked again it moves up', async () => {
  const queue = requestQueue<string>(1);
  const { started, start, finish } = jobs();
  const running = queue.get('x', start('x'));
  const leaving = new AbortController();
  const one = queue.get('a', start('a'), leaving.signal);
  const two = queue.get('a', start('a'));
  queue.get('b', start('b')).catch(() => undefined);
  await nextBatch();
  // Asked again in a later batch: before b.
  const three = queue.get('b', start('b'));
  leaving.abort();
  await expect(one).rejects.toMatchObject({ name: 'AbortError' });
  await finish('x');
  expect(started).toEqual(['x', 'b']);
  await finish('b');
  await finish('a');
  expect(started).toEqual(['x', 'b', 'a']);
  await expect(two).resolves.toBe('value of a');
  await expect(three).resolves.toBe('value of b');
  await expect(running).resolves.toBe('value of x');
});

test('a failure reaches every caller of the key and frees the place; clear rejects everyone', async () => {
  const queue = requestQueue<string>(1);
  const failing = queue.get('bad', () => Promise.reject(new Error('broken')));
  const alsoFailing = queue.get('bad', () => Promise.resolve('never'));
  await expect(failing).rejects.toThrow('broken');
  await expect(alsoFailing).rejects.toThrow('broken');
  expect(queue.running).toBe(0);

  const { start } = jobs();
  const held = queue.get('a', start('a'));
  const waiting = queue.get('b', start('b'));
  queue.clear(new Error('media reset'));
  await expect(held).rejects.toThrow('media reset');
  await expect(waiting).rejects.toThrow('media reset');
  expect(queue.waiting).toBe(0);
});
