/** @jest-environment node */
// The media worker's work (media-job.ts) in this process, fetch and Cache Storage faked: a thumbnail opens
// and is cached ENCRYPTED (never the JPEG), a cached one is read without fetching, a stale or foreign cached
// entry is replaced, a tampered answer is not cached, one not in the cache is not fetched while fetches are held; an original decrypts while it streams, and a cut or
// tampered one errors with DecryptionError; a thumbnail's object URL is made here and revoked here; the viewer's original of a file that is no HEIF is its bytes as they
// are; HTTP failures are MediaErrors.
import { resolveObjectURL } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';

import { DecryptionError, encryptBlobB64, encryptStreamBytes, fromB64, generateKeyB64 } from '@ente/crypto';

import { MediaError } from './errors.ts';
import { createMediaJob, THUMBNAIL_CACHE, thumbnailCacheKey } from './media-job.ts';
import { THUMBNAIL_MAX_BYTES } from './read-at-most.ts';

const stored = new Map<string, Uint8Array<ArrayBuffer>>();
let answers: Map<string, () => Response>;
let fetched: string[];

beforeEach(() => {
  stored.clear();
  fetched = [];
  answers = new Map();
  jest.spyOn(globalThis, 'fetch').mockImplementation((input) => {
    const url = input instanceof Request ? input.url : input.toString();
    fetched.push(url);
    const answer = answers.get(url);
    return answer ? Promise.resolve(answer()) : Promise.reject(new TypeError('network'));
  });
  const cache = {
    match: (key: string) => Promise.resolve(stored.has(key) ? new Response(stored.get(key)) : undefined),
    put: async (key: string, response: Response) => void stored.set(key, new Uint8Array(await response.arrayBuffer())),
    delete: (key: string) => Promise.resolve(stored.delete(key)),
  };
  Object.assign(globalThis, {
    caches: {
      open: (name: string) => (name === THUMBNAIL_CACHE ? Promise.resolve(cache) : Promise.reject(new Error(name))),
    },
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  delete (globalThis as { caches?: unknown }).caches;
});

const body = (bytes: Uint8Array) => () => new Response(bytes as Uint8Array<ArrayBuffer>);

describe('thumbnail', () => {
  async function thumbnailOf(jpeg: Uint8Array) {
    const key = await generateKeyB64();
    const blob = await encryptBlobB64(jpeg, key);
    return { key, header: blob.header, encrypted: fromB64(blob.encryptedData) };
  }
  const url = 'https://api.test/files/preview/3?token=t';

  test('fetched, opened, and cached encrypted; the next time read from the cache; typed as the JPEG it is', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(5000)]);
    const { key, header, encrypted } = await thumbnailOf(jpeg);
    answers.set(url, body(encrypted));
    const job = createMediaJob();
    const first = await job.thumbnail({ fileID: 3, url, key, header });
    expect(Buffer.from(await first.arrayBuffer()).equals(jpeg)).toBe(true);
    expect(first.type).toBe('image/jpeg');
    expect(Buffer.from(stored.get(thumbnailCacheKey(3))!).equals(encrypted)).toBe(true);
    answers.clear();
    const second = await job.thumbnail({ fileID: 3, url, key, header });
    expect(Buffer.from(await second.arrayBuffer()).equals(jpeg)).toBe(true);
    expect(second.type).toBe('image/jpeg');
    expect(fetched).toEqual([url]);
  });

  test('thumbnailURL: an object URL of the typed thumbnail, made in the worker; revokeURLs lets go of it', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(300)]);
    const { key, header, encrypted } = await thumbnailOf(jpeg);
    answers.set(url, body(encrypted));
    const job = createMediaJob();
    const made = await job.thumbnailURL({ fileID: 3, url, key, header, cache: false });
    const blob = resolveObjectURL(made);
    expect(blob?.type).toBe('image/jpeg');
    expect(Buffer.from(await blob!.arrayBuffer()).equals(jpeg)).toBe(true);
    job.revokeURLs([made]);
    expect(resolveObjectURL(made)).toBeUndefined();
  });

  test('a thumbnail whose bytes are no image is typed application/octet-stream, a PNG image/png', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(50)]);
    for (const [bytes, type] of [
      [Buffer.from('<html><script>alert(1)</script>'), 'application/octet-stream'],
      [png, 'image/png'],
    ] as const) {
      const { key, header, encrypted } = await thumbnailOf(bytes);
      answers.set(url, body(encrypted));
      const blob = await createMediaJob().thumbnail({ fileID: 3, url, key, header, cache: false });
      expect(blob.type).toBe(type);
    }
  });

  test('a cached entry that does not open (stale, or a decrypted one of another client) is fetched again', async () => {
    const jpeg = randomBytes(100);
    const { key, header, encrypted } = await thumbnailOf(jpeg);
    stored.set(thumbnailCacheKey(3), new Uint8Array(randomBytes(117)));
    answers.set(url, body(encrypted));
    const blob = await createMediaJob().thumbnail({ fileID: 3, url, key, header });
    expect(Buffer.from(await blob.arrayBuffer()).equals(jpeg)).toBe(true);
    expect(Buffer.from(stored.get(thumbnailCacheKey(3))!).equals(encrypted)).toBe(true);
  });

  test('a tampered answer is a DecryptionError and is not cached; HTTP failures are MediaErrors', async () => {
    const { key, header, encrypted } = await thumbnailOf(randomBytes(100));
    encrypted[5]! ^= 1;
    answers.set(url, body(encrypted));
    const job = createMediaJob();
    await expect(job.thumbnail({ fileID: 3, url, key, header })).rejects.toBeInstanceOf(DecryptionError);
    expect(stored.size).toBe(0);
    answers.set(url, () => new Response('', { status: 404 }));
    await expect(job.thumbnail({ fileID: 3, url, key, header })).rejects.toMatchObject({ reason: 'notFound' });
    answers.set(url, () => new Response('', { status: 500 }));
    await expect(job.thumbnail({ fileID: 3, url, key, header })).rejects.toMatchObject({ reason: 'server' });
    answers.clear();
    await expect(job.thumbnail({ fileID: 3, url, key, header })).rejects.toEqual(new MediaError('network'));
  });

  test('with cache: false (a public album) the thumbs cache is neither read nor written', async () => {
    const jpeg = randomBytes(100);
    const { key, header, encrypted } = await thumbnailOf(jpeg);
    const other = await thumbnailOf(randomBytes(100));
    stored.set(thumbnailCacheKey(3), new Uint8Array(other.encrypted));
    answers.set(url, body(encrypted));
    const blob = await createMediaJob().thumbnail({ fileID: 3, url, key, header, cache: false });
    expect(Buffer.from(await blob.arrayBuffer()).equals(jpeg)).toBe(true);
    expect(fetched).toEqual([url]);
    expect(Buffer.from(stored.get(thumbnailCacheKey(3))!).equals(other.encrypted)).toBe(true);
  });

  test('with mayFetch: false only the thumbs cache answers; one not there is MediaError held, nothing fetched', async () => {
    const jpeg = randomBytes(100);
    const { key, header, encrypted } = await thumbnailOf(jpeg);
    answers.set(url, body(encrypted));
    const job = createMediaJob();
    const held = job.thumbnail({ fileID: 3, url, key, header, mayFetch: false });
    await expect(held).rejects.toMatchObject({ name: 'MediaError', reason: 'held' });
    await expect(job.thumbnail({ fileID: 3, url, key, header, cache: false, mayFetch: false })).rejects.toMatchObject({
      reason: 'held',
    });
    expect(fetched).toEqual([]);
    stored.set(thumbnailCacheKey(3), new Uint8Array(encrypted));
    const blob = await job.thumbnail({ fileID: 3, url, key, header, mayFetch: false });
    expect(Buffer.from(await blob.arrayBuffer()).equals(jpeg)).toBe(true);
    expect(fetched).toEqual([]);
  });

  test('without Cache Storage (an insecure context) it still works', async () => {
    delete (globalThis as { caches?: unknown }).caches;
    const jpeg = randomBytes(100);
    const { key, header, encrypted } = await thumbnailOf(jpeg);
    answers.set(url, body(encrypted));
    const blob = await createMediaJob().thumbnail({ fileID: 3, url, key, header });
    expect(Buffer.from(await blob.arrayBuffer()).equals(jpeg)).toBe(true);
  });
});

test('a thumbnail answer past 1 MiB is refused (MediaError tooLarge) without reading it all, and not cached', async () => {
  const url = 'https://api.test/files/preview/4?token=t';
  let sent = 0;
  answers.set(
    url,
    () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            sent += 65_536;
            controller.enqueue(new Uint8Array(65_536));
          },
        }),
      ),
  );
  const failure = createMediaJob().thumbnail({ fileID: 4, url, key: await generateKeyB64(), header: 'h' });
  await expect(failure).rejects.toMatchObject({ name: 'MediaError', reason: 'tooLarge' });
  expect(sent).toBeLessThan(THUMBNAIL_MAX_BYTES + 4 * 65_536);
  expect(stored.size).toBe(0);
});

describe('original', () => {
  const url = 'https://api.test/files/download/3?token=t';

  /** A response body that arrives in small pieces, like a download. */
  const trickle = (bytes: Uint8Array) => () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 65_536) controller.enqueue(bytes.slice(at, at + 65_536));
          controller.close();
        },
      }),
    );

  test('decrypts chunk by chunk as it downloads, as a stream and as a Blob', async () => {
    const data = randomBytes(9 * 1024 * 1024 + 5);
    const { key, header, encrypted } = await encryptStreamBytes(data);
    answers.set(url, trickle(encrypted));
    const job = createMediaJob();
    const stream = await job.original({ url, key, header });
    const reader = stream.getReader();
    const sizes: number[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) sizes.push(next.value.length);
    expect(sizes).toEqual([4 * 1024 * 1024, 4 * 1024 * 1024, 1024 * 1024 + 5]);
    const blob = await job.originalBlob({ url, key, header });
    expect(Buffer.from(await blob.arrayBuffer()).equals(data)).toBe(true);
  });

  test("the viewer's original is the decrypted bytes themselves when it is no HEIF", async () => {
    const jpeg = new Uint8Array(
      readFileSync(path.join(__dirname, '../../../../e2e/fixtures/photos/sunset-exif-gps.jpg')),
    );
    const { key, header, encrypted } = await encryptStreamBytes(jpeg);
    answers.set(url, trickle(encrypted));
    const shown = await createMediaJob().displayableOriginal({ url, key, header });
    expect(Buffer.from(await shown.arrayBuffer()).equals(jpeg)).toBe(true);
  });

  test('a cut or tampered download errors with DecryptionError', async () => {
    const { key, header, encrypted } = await encryptStreamBytes(randomBytes(5 * 1024 * 1024));
    const job = createMediaJob();
    answers.set(url, trickle(encrypted.subarray(0, 4 * 1024 * 1024 + 17)));
    await expect(job.originalBlob({ url, key, header })).rejects.toBeInstanceOf(DecryptionError);
    const tampered = encrypted.slice();
    tampered[tampered.length - 3]! ^= 1;
    answers.set(url, trickle(tampered));
    await expect(job.originalBlob({ url, key, header })).rejects.toBeInstanceOf(DecryptionError);
  });
});
