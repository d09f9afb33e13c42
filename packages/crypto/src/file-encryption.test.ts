// The upload's single pass (file-encryption.ts): what it writes is the Stream of the file, its hash is the
// file's BLAKE2b-512 and its part MD5s are those of the written bytes cut at partLength, whatever the
// source's pieces and whether or not parts line up with chunks.
import { createHash, randomBytes } from 'node:crypto';

import { describe, expect, test } from '@jest/globals';

import { encryptFileForUpload, hashFileB64 } from './file-encryption.ts';
import { decryptStreamBytes, STREAM_CHUNK_BYTES, STREAM_ENCRYPTED_CHUNK_BYTES, streamEncryptedSize } from './stream.ts';

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('base64');
const blake2b = (bytes: Uint8Array) => createHash('blake2b512').update(bytes).digest('base64');

function* cut(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

async function run(data: Uint8Array, partLength: number, pieceSize = 1024 * 1024) {
  const written: Uint8Array[] = [];
  const progress: number[] = [];
  const result = await encryptFileForUpload(cut(data, pieceSize), {
    partLength,
    write: (bytes) => void written.push(bytes.slice()),
    onProgress: (done) => progress.push(done),
  });
  return { result, encrypted: Buffer.concat(written), progress };
}

describe('encryptFileForUpload', () => {
  const fiveChunks = 5 * STREAM_ENCRYPTED_CHUNK_BYTES;
  test.each([
    ['empty', 0, fiveChunks],
    ['1 byte', 1, fiveChunks],
    ['one whole chunk', STREAM_CHUNK_BYTES, fiveChunks],
    ['a chunk and a byte, parts smaller than a chunk', STREAM_CHUNK_BYTES + 1, 1024 * 1024],
    ['three chunks, parts across chunk boundaries', 2 * STREAM_CHUNK_BYTES + 99, 5 * 1024 * 1024 + 3],
    ['parts of exactly two encrypted chunks', 4 * STREAM_CHUNK_BYTES, 2 * STREAM_ENCRYPTED_CHUNK_BYTES],
  ])('%s', async (_name, size, partLength) => {
    const data = randomBytes(size);
    const { result, encrypted, progress } = await run(data, partLength, 777_777);
    expect(result.plaintextSize).toBe(size);
    expect(result.size).toBe(streamEncryptedSize(size));
    expect(encrypted.length).toBe(result.size);
    expect(result.hash).toBe(blake2b(data));
    expect(result.partLength).toBe(partLength);
    expect(result.partMd5s).toEqual([...cut(encrypted, partLength)].map(md5));
    expect(result.partMd5s.length).toBe(Math.ceil(result.size / partLength));
    expect(progress.at(-1)).toBe(size);
    expect(Buffer.from(await decryptStreamBytes(encrypted, result.header, result.key)).equals(data)).toBe(true);
  });

  test('a given key is used', async () => {
    const key = randomBytes(32).toString('base64');
    const data = randomBytes(10);
    const written: Uint8Array[] = [];
    const result = await encryptFileForUpload([data], { key, partLength: 100, write: (b) => void written.push(b) });
    expect(result.key).toBe(key);
    expect(Buffer.from(await decryptStreamBytes(Buffer.concat(written), result.header, key)).equals(data)).toBe(true);
  });

  test('stops between chunks when aborted, and refuses a part length that is not positive', async () => {
    const controller = new AbortController();
    let writes = 0;
    const pending = encryptFileForUpload(cut(randomBytes(3 * STREAM_CHUNK_BYTES), STREAM_CHUNK_BYTES), {
      partLength: fiveChunks,
      signal: controller.signal,
      write: () => {
        writes++;
        controller.abort(new Error('cancelled'));
      },
    });
    await expect(pending).rejects.toThrow('cancelled');
    expect(writes).toBe(1);
    await expect(encryptFileForUpload([], { partLength: 0, write: () => undefined })).rejects.toThrow(RangeError);
  });
});

test('hashFileB64 equals Node’s BLAKE2b-512 and reports progress', async () => {
  const data = randomBytes(STREAM_CHUNK_BYTES + 5);
  const progress: number[] = [];
  expect(await hashFileB64(cut(data, 300_000), { onProgress: (done) => progress.push(done) })).toBe(blake2b(data));
  expect(progress).toEqual([STREAM_CHUNK_BYTES, STREAM_CHUNK_BYTES + 5]);
});
