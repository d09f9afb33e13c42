// The chunked secretstream (stream.ts): sizes at and around the 4 MiB boundaries, bytes arriving cut
// anywhere, plain libsodium on the other side in both directions, and every way a stream can be broken.
import { randomBytes } from 'node:crypto';

import { describe, expect, test } from '@jest/globals';
import plainSodium from 'libsodium-wrappers-sumo';

import { fromB64, toB64 } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import {
  createChunkDecryptor,
  createChunkEncryptor,
  decryptingStream,
  decryptStreamBytes,
  decryptStreamChunks,
  encryptStreamBytes,
  recut,
  STREAM_CHUNK_BYTES,
  STREAM_ENCRYPTED_CHUNK_BYTES,
  streamEncryptedSize,
  streamPlaintextSize,
} from './stream.ts';

const MiB = 1024 * 1024;

function* pieces(bytes: Uint8Array, sizes: (index: number) => number): Generator<Uint8Array> {
  let offset = 0;
  for (let index = 0; offset < bytes.length; index++) {
    const end = Math.min(bytes.length, offset + Math.max(1, sizes(index)));
    yield bytes.slice(offset, end);
    offset = end;
  }
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of chunks) parts.push(part);
  return Buffer.concat(parts);
}

/** Opens `encrypted` with libsodium itself, asserting Ente's layout: 4 MiB + 17 chunks, MESSAGE then FINAL. */
async function openWithLibsodium(encrypted: Uint8Array, headerB64: string, keyB64: string): Promise<Uint8Array> {
  await plainSodium.ready;
  const state = plainSodium.crypto_secretstream_xchacha20poly1305_init_pull(fromB64(headerB64), fromB64(keyB64));
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < encrypted.length; offset += STREAM_ENCRYPTED_CHUNK_BYTES) {
    const end = Math.min(encrypted.length, offset + STREAM_ENCRYPTED_CHUNK_BYTES);
    const result = plainSodium.crypto_secretstream_xchacha20poly1305_pull(state, encrypted.subarray(offset, end), null);
    if (!result) throw new Error('libsodium could not open a chunk');
    const expectedTag =
      end === encrypted.length
        ? plainSodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL
        : plainSodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE;
    expect(result.tag).toBe(expectedTag);
    parts.push(result.message);
  }
  return Buffer.concat(parts);
}

describe('encryptStreamBytes / decryptStreamBytes', () => {
  const sizes = [
    0,
    1,
    1000,
    STREAM_CHUNK_BYTES - 1,
    STREAM_CHUNK_BYTES,
    STREAM_CHUNK_BYTES + 1,
    2 * STREAM_CHUNK_BYTES,
    2 * STREAM_CHUNK_BYTES + 5,
  ];
  test.each(sizes)('%i bytes: Ente layout, libsodium opens it, and it round-trips', async (size) => {
    const data = randomBytes(size);
    const { key, header, encrypted } = await encryptStreamBytes(data);
    expect(fromB64(key)).toHaveLength(32);
    expect(fromB64(header)).toHaveLength(24);
    expect(encrypted.length).toBe(streamEncryptedSize(size));
    expect(streamPlaintextSize(encrypted.length)).toBe(size);
    expect(encrypted.length).toBe(size + 17 * Math.max(1, Math.ceil(size / STREAM_CHUNK_BYTES)));
    expect(Buffer.from(await openWithLibsodium(encrypted, header, key)).equals(data)).toBe(true);
    expect(Buffer.from(await decryptStreamBytes(encrypted, header, key)).equals(data)).toBe(true);
  });

  test('an empty file is one FINAL chunk of 17 bytes', async () => {
    const { encrypted } = await encryptStreamBytes(new Uint8Array(0));
    expect(encrypted).toHaveLength(17);
  });

  test('opens what plain libsodium wrote in 4 MiB chunks under a given key', async () => {
    await plainSodium.ready;
    const key = plainSodium.crypto_secretstream_xchacha20poly1305_keygen();
    const data = randomBytes(STREAM_CHUNK_BYTES + 123);
    const { state, header } = plainSodium.crypto_secretstream_xchacha20poly1305_init_push(key);
    const first = plainSodium.crypto_secretstream_xchacha20poly1305_push(
      state,
      data.subarray(0, STREAM_CHUNK_BYTES),
      null,
      plainSodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE,
    );
    const second = plainSodium.crypto_secretstream_xchacha20poly1305_push(
      state,
      data.subarray(STREAM_CHUNK_BYTES),
      null,
      plainSodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL,
    );
    const plaintext = await decryptStreamBytes(Buffer.concat([first, second]), toB64(header), toB64(key));
    expect(Buffer.from(plaintext).equals(data)).toBe(true);
  });

  test('the same key gives the same key back and a fresh header each time', async () => {
    const key = toB64(randomBytes(32));
    const a = await encryptStreamBytes(randomBytes(10), key);
    const b = await encryptStreamBytes(randomBytes(10), key);
    expect(a.key).toBe(key);
    expect(a.header).not.toBe(b.header);
  });
});

describe('decryptStreamChunks: bytes cut anywhere', () => {
  test.each([
    ['1-byte pieces', 3000, () => 1],
    ['pieces of the encrypted chunk size', 2 * STREAM_CHUNK_BYTES, () => STREAM_ENCRYPTED_CHUNK_BYTES],
    ['pieces one byte short of it', 2 * STREAM_CHUNK_BYTES + 1, () => STREAM_ENCRYPTED_CHUNK_BYTES - 1],
    ['pieces one byte over it', 3 * STREAM_CHUNK_BYTES, () => STREAM_ENCRYPTED_CHUNK_BYTES + 1],
    ['irregular pieces', 2 * STREAM_CHUNK_BYTES + 77, (i: number) => [65536, 1, 3 * MiB, 17, 5 * MiB][i % 5]!],
  ])('%s', async (_name, size, cut) => {
    const data = randomBytes(size);
    const { key, header, encrypted } = await encryptStreamBytes(data);
    const plaintext = await collect(decryptStreamChunks(pieces(encrypted, cut), header, key));
    expect(Buffer.from(plaintext).equals(data)).toBe(true);
  });

  test('yields one plaintext chunk per encrypted chunk', async () => {
    const data = randomBytes(2 * STREAM_CHUNK_BYTES + 1);
    const { key, header, encrypted } = await encryptStreamBytes(data);
    const sizes: number[] = [];
    for await (const part of decryptStreamChunks(
      pieces(encrypted, () => MiB),
      header,
      key,
    ))
      sizes.push(part.length);
    expect(sizes).toEqual([STREAM_CHUNK_BYTES, STREAM_CHUNK_BYTES, 1]);
  });

  test('decryptingStream reads a ReadableStream and answers one', async () => {
    const data = randomBytes(STREAM_CHUNK_BYTES + 9);
    const { key, header, encrypted } = await encryptStreamBytes(data);
    for (const asIterable of [true, false]) {
      const body = new Response(encrypted).body!;
      // Safari's streams are not async-iterable: the reader path.
      const source = asIterable ? body : ({ getReader: () => body.getReader() } as ReadableStream<Uint8Array>);
      const plaintext = new Uint8Array(await new Response(decryptingStream(source, header, key)).arrayBuffer());
      expect(Buffer.from(plaintext).equals(data)).toBe(true);
    }
  });

  test('recut keeps every byte in order', async () => {
    const data = randomBytes(1000);
    const out: Uint8Array[] = [];
    for await (const piece of recut(
      pieces(data, (i) => (i * 7) % 13),
      64,
    ))
      out.push(piece.slice());
    expect(out.slice(0, -1).every((piece) => piece.length === 64)).toBe(true);
    expect(out.at(-1)).toHaveLength(1000 % 64);
    expect(Buffer.concat(out).equals(data)).toBe(true);
  });
});

describe('broken streams throw DecryptionError', () => {
  async function sample() {
    return encryptStreamBytes(randomBytes(2 * STREAM_CHUNK_BYTES + 10));
  }

  test('a flipped byte in any chunk', async () => {
    const { key, header, encrypted } = await sample();
    for (const position of [0, STREAM_ENCRYPTED_CHUNK_BYTES + 5, encrypted.length - 1]) {
      const tampered = encrypted.slice();
      tampered[position]! ^= 1;
      await expect(decryptStreamBytes(tampered, header, key)).rejects.toBeInstanceOf(DecryptionError);
    }
  });

  test('a missing last chunk (truncation) and a missing middle chunk', async () => {
    const { key, header, encrypted } = await sample();
    const truncated = encrypted.subarray(0, 2 * STREAM_ENCRYPTED_CHUNK_BYTES);
    await expect(decryptStreamBytes(truncated, header, key)).rejects.toThrow('stream ended before its final chunk');
    const withoutMiddle = Buffer.concat([
      encrypted.subarray(0, STREAM_ENCRYPTED_CHUNK_BYTES),
      encrypted.subarray(2 * STREAM_ENCRYPTED_CHUNK_BYTES),
    ]);
    await expect(decryptStreamBytes(withoutMiddle, header, key)).rejects.toBeInstanceOf(DecryptionError);
    await expect(decryptStreamBytes(new Uint8Array(0), header, key)).rejects.toBeInstanceOf(DecryptionError);
  });

  test('data after the FINAL chunk', async () => {
    const { key, header, encrypted } = await encryptStreamBytes(randomBytes(100));
    const decryptor = await createChunkDecryptor(header, key);
    expect(decryptor.pull(encrypted).last).toBe(true);
    expect(() => decryptor.pull(encrypted)).toThrow(DecryptionError);
    // Appended to a short last chunk, the extra bytes make it fail to open; after a whole chunk they are a chunk
    // of their own that comes after FINAL.
    const extra = Buffer.concat([encrypted, randomBytes(20)]);
    await expect(decryptStreamBytes(extra, header, key)).rejects.toBeInstanceOf(DecryptionError);
    const whole = await encryptStreamBytes(randomBytes(STREAM_CHUNK_BYTES));
    const afterWhole = Buffer.concat([whole.encrypted, randomBytes(20)]);
    await expect(decryptStreamBytes(afterWhole, whole.header, whole.key)).rejects.toThrow('data after the final chunk');
  });

  test('a wrong key, a wrong header, a malformed header', async () => {
    const { key, header, encrypted } = await sample();
    await expect(decryptStreamBytes(encrypted, header, toB64(randomBytes(32)))).rejects.toBeInstanceOf(DecryptionError);
    await expect(decryptStreamBytes(encrypted, toB64(randomBytes(24)), key)).rejects.toBeInstanceOf(DecryptionError);
    await expect(createChunkDecryptor(toB64(randomBytes(7)), key)).rejects.toBeInstanceOf(DecryptionError);
  });

  test('chunks in another order', async () => {
    const { key, header, encrypted } = await sample();
    const swapped = Buffer.concat([
      encrypted.subarray(STREAM_ENCRYPTED_CHUNK_BYTES, 2 * STREAM_ENCRYPTED_CHUNK_BYTES),
      encrypted.subarray(0, STREAM_ENCRYPTED_CHUNK_BYTES),
      encrypted.subarray(2 * STREAM_ENCRYPTED_CHUNK_BYTES),
    ]);
    await expect(decryptStreamBytes(swapped, header, key)).rejects.toBeInstanceOf(DecryptionError);
  });

  test('decryptingStream errors its reader', async () => {
    const { key, header, encrypted } = await sample();
    const tampered = encrypted.slice();
    tampered[10]! ^= 1;
    const stream = decryptingStream(
      pieces(tampered, () => MiB),
      header,
      key,
    );
    await expect(new Response(stream).arrayBuffer()).rejects.toBeInstanceOf(DecryptionError);
  });
});

describe('createChunkEncryptor', () => {
  test('refuses a short chunk that is not the last, a chunk over 4 MiB, and pushes after the last', async () => {
    const encryptor = await createChunkEncryptor();
    expect(() => encryptor.push(new Uint8Array(10), false)).toThrow(RangeError);
    expect(() => encryptor.push(new Uint8Array(STREAM_CHUNK_BYTES + 1), true)).toThrow(RangeError);
    encryptor.push(new Uint8Array(STREAM_CHUNK_BYTES), false);
    encryptor.push(new Uint8Array(3), true);
    expect(() => encryptor.push(new Uint8Array(1), true)).toThrow('the stream already ended');
  });
});
