// open.ts and box-open.ts (no libsodium) open what libsodium wrote, as box.ts, blob.ts and stream.ts do, and refuses what they
// refuse: Boxes and Blobs of many sizes, Streams of 0 bytes to three 4 MiB chunks arriving cut anywhere, and
// tampering, truncation, data after FINAL, a Blob without FINAL, wrong keys, lengths and base64.
import { randomBytes } from 'node:crypto';

import { beforeAll, describe, expect, test } from '@jest/globals';
import sodium from 'libsodium-wrappers-sumo';

import { encryptBlobB64 } from './blob.ts';
import { openBoxBytes } from './box-open.ts';
import { encryptBoxB64 } from './box.ts';
import { fromB64, toB64 } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import { generateKeyB64 } from './keys.ts';
import { openBlobBytes, openingStream } from './open.ts';
import { encryptStreamBytes, STREAM_CHUNK_BYTES } from './stream.ts';

beforeAll(async () => {
  await sodium.ready;
});

const sizes = [0, 1, 15, 16, 17, 32, 63, 64, 65, 1000, 65_537];
const MiB = 1024 * 1024;

function tamperedAt(b64: string, index: number): string {
  const bytes = fromB64(b64);
  bytes[index]! ^= 1;
  return toB64(bytes);
}

async function read(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

function* cut(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

describe('openBoxBytes', () => {
  test.each(sizes)('a Box of %i bytes libsodium sealed, as b64 and as bytes', async (size) => {
    const key = await generateKeyB64();
    const data = randomBytes(size);
    const box = await encryptBoxB64(data, key);
    expect(Buffer.from(openBoxBytes(box, key)).equals(data)).toBe(true);
    const asBytes = { encryptedData: fromB64(box.encryptedData), nonce: fromB64(box.nonce) };
    expect(Buffer.from(openBoxBytes(asBytes, fromB64(key))).equals(data)).toBe(true);
  });

  test('every flipped byte, a wrong key, nonce, length or base64 is DecryptionError', async () => {
    const key = await generateKeyB64();
    const box = await encryptBoxB64(randomBytes(40), key);
    for (let i = 0; i < fromB64(box.encryptedData).length; i++) {
      expect(() => openBoxBytes({ ...box, encryptedData: tamperedAt(box.encryptedData, i) }, key)).toThrow(
        DecryptionError,
      );
    }
    const otherKey = await generateKeyB64();
    expect(() => openBoxBytes(box, otherKey)).toThrow(DecryptionError);
    expect(() => openBoxBytes({ ...box, nonce: tamperedAt(box.nonce, 3) }, key)).toThrow(DecryptionError);
    expect(() => openBoxBytes({ ...box, nonce: toB64(randomBytes(12)) }, key)).toThrow(DecryptionError);
    expect(() => openBoxBytes({ ...box, encryptedData: toB64(randomBytes(15)) }, key)).toThrow(DecryptionError);
    expect(() => openBoxBytes(box, toB64(randomBytes(16)))).toThrow(DecryptionError);
    expect(() => openBoxBytes({ ...box, encryptedData: 'not base64!' }, key)).toThrow(DecryptionError);
  });
});

describe('openBlobBytes', () => {
  test.each(sizes)('a Blob of %i bytes libsodium pushed', async (size) => {
    const key = await generateKeyB64();
    const data = randomBytes(size);
    const blob = await encryptBlobB64(data, key);
    expect(Buffer.from(openBlobBytes(blob, key)).equals(data)).toBe(true);
    const asBytes = { encryptedData: fromB64(blob.encryptedData), header: fromB64(blob.header) };
    expect(Buffer.from(openBlobBytes(asBytes, key)).equals(data)).toBe(true);
  });

  test('tampering, truncation, a wrong key or header, base64 and a message without FINAL are DecryptionError', async () => {
    const key = await generateKeyB64();
    const blob = await encryptBlobB64(randomBytes(30), key);
    const length = fromB64(blob.encryptedData).length;
    for (let i = 0; i < length; i++) {
      expect(() => openBlobBytes({ ...blob, encryptedData: tamperedAt(blob.encryptedData, i) }, key)).toThrow(
        DecryptionError,
      );
    }
    const truncated = toB64(fromB64(blob.encryptedData).subarray(0, length - 1));
    expect(() => openBlobBytes({ ...blob, encryptedData: truncated }, key)).toThrow(DecryptionError);
    const otherKey = await generateKeyB64();
    expect(() => openBlobBytes(blob, otherKey)).toThrow(DecryptionError);
    expect(() => openBlobBytes({ ...blob, header: tamperedAt(blob.header, 20) }, key)).toThrow(DecryptionError);
    expect(() => openBlobBytes({ ...blob, header: toB64(randomBytes(16)) }, key)).toThrow(DecryptionError);
    expect(() => openBlobBytes({ ...blob, encryptedData: '***' }, key)).toThrow(DecryptionError);

    const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(fromB64(key));
    const message = sodium.crypto_secretstream_xchacha20poly1305_push(
      state,
      randomBytes(30),
      null,
      sodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE,
    );
    expect(() => openBlobBytes({ encryptedData: message, header }, key)).toThrow(DecryptionError);
  });
});

describe('openingStream', () => {
  test.each([
    0,
    1,
    1000,
    STREAM_CHUNK_BYTES - 1,
    STREAM_CHUNK_BYTES,
    STREAM_CHUNK_BYTES + 1,
    2 * STREAM_CHUNK_BYTES + 5,
  ])('a Stream of %i bytes libsodium wrote, arriving in pieces of 1 MiB and whole', async (size) => {
    const data = randomBytes(size);
    const { key, header, encrypted } = await encryptStreamBytes(data);
    expect((await read(openingStream(cut(encrypted, MiB), header, key))).equals(data)).toBe(true);
    expect((await read(openingStream([encrypted], header, key))).equals(data)).toBe(true);
  });

  test('a tampered, truncated, reordered or extended Stream, or a wrong key, errors with DecryptionError', async () => {
    const { key, header, encrypted } = await encryptStreamBytes(randomBytes(STREAM_CHUNK_BYTES + 100));
    const chunk = STREAM_CHUNK_BYTES + 17;
    const tampered = Uint8Array.from(encrypted);
    tampered[chunk + 50]! ^= 1;
    const reordered = Buffer.concat([encrypted.subarray(chunk), encrypted.subarray(0, chunk)]);
    const broken: [Uint8Array, string][] = [
      [tampered, key],
      [encrypted.subarray(0, chunk), key],
      [encrypted.subarray(0, encrypted.length - 1), key],
      [reordered, key],
      [Buffer.concat([encrypted, encrypted.subarray(0, 17)]), key],
      [encrypted, await generateKeyB64()],
    ];
    for (const [bytes, withKey] of broken) {
      await expect(read(openingStream([bytes], header, withKey))).rejects.toThrow(DecryptionError);
    }
    await expect(read(openingStream([encrypted], toB64(randomBytes(23)), key))).rejects.toThrow(DecryptionError);
  });
});
