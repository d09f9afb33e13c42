// Stream (docs/protocol.md#crypto-primitives): a file's bytes as secretstream XChaCha20-Poly1305 in 4 MiB
// plaintext chunks, each pushed with TAG_MESSAGE and the last with TAG_FINAL, no additional data; every
// encrypted chunk is its plaintext + 17 bytes and the 24-byte header travels beside the object
// (`file.decryptionHeader`). An empty file is one FINAL chunk of 0 bytes (17 bytes), so that every stream
// ends with FINAL and a truncated object is always detected ([decisions](../../../docs/decisions.md#the-photos-app)).
// One chunk at a time, so that a worker never holds a whole large file. The re-cutting of incoming bytes and the
// FINAL checks are stream-chunks.ts's, shared with open.ts's libsodium-free opening.
import { bytesOf, toB64, type BytesOrB64 } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import { sodiumReady } from './sodium.ts';
import {
  finalTrackingDecryptor,
  openChunks,
  readableOf,
  type ByteSource,
  type ChunkDecryptor,
} from './stream-chunks.ts';
import { STREAM_CHUNK_BYTES, streamEncryptedSize } from './stream-sizes.ts';

export * from './stream-sizes.ts';
export { recut, type ByteSource, type ChunkDecryptor } from './stream-chunks.ts';

/** Encrypts one file, chunk after chunk. `key` and `header` are b64. */
export interface ChunkEncryptor {
  readonly key: string;
  readonly header: string;
  /**
   * Encrypts the next chunk: exactly `STREAM_CHUNK_BYTES` unless `last` (then 0 to `STREAM_CHUNK_BYTES`).
   * Throws once the last chunk was pushed.
   */
  push(chunk: Uint8Array, last: boolean): Uint8Array;
}

/** Starts the encryption of one file under `key`, or under a fresh random key when none is given. */
export async function createChunkEncryptor(key?: BytesOrB64): Promise<ChunkEncryptor> {
  const sodium = await sodiumReady();
  const keyBytes = key === undefined ? sodium.crypto_secretstream_xchacha20poly1305_keygen() : bytesOf(key);
  const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(keyBytes);
  let ended = false;
  return {
    key: toB64(keyBytes),
    header: toB64(header),
    push(chunk, last) {
      if (ended) throw new Error('the stream already ended');
      if (chunk.length > STREAM_CHUNK_BYTES || (!last && chunk.length !== STREAM_CHUNK_BYTES)) {
        throw new RangeError(`a chunk other than the last must be ${STREAM_CHUNK_BYTES} bytes (got ${chunk.length})`);
      }
      ended = last;
      const tag = last
        ? sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL
        : sodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE;
      return sodium.crypto_secretstream_xchacha20poly1305_push(state, chunk, null, tag);
    },
  };
}

export async function createChunkDecryptor(header: BytesOrB64, key: BytesOrB64): Promise<ChunkDecryptor> {
  const sodium = await sodiumReady();
  let state: ReturnType<typeof sodium.crypto_secretstream_xchacha20poly1305_init_pull>;
  try {
    state = sodium.crypto_secretstream_xchacha20poly1305_init_pull(bytesOf(header), bytesOf(key));
  } catch {
    throw new DecryptionError('stream header or key could not be used');
  }
  return finalTrackingDecryptor((chunk) => {
    let result: { message: Uint8Array; tag: number } | false;
    try {
      result = sodium.crypto_secretstream_xchacha20poly1305_pull(state, chunk, null);
    } catch {
      throw new DecryptionError('stream chunk could not be opened');
    }
    if (!result) throw new DecryptionError('stream chunk could not be opened');
    return { plaintext: result.message, last: result.tag === sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL };
  });
}

/**
 * The plaintext of an encrypted file whose bytes arrive cut anywhere, one 4 MiB chunk at a time. Throws
 * `DecryptionError` on a chunk that does not open, data after the FINAL chunk, and a source that ends
 * before it (a truncated object).
 */
export async function* decryptStreamChunks(
  source: ByteSource,
  header: BytesOrB64,
  key: BytesOrB64,
): AsyncGenerator<Uint8Array> {
  yield* openChunks(source, await createChunkDecryptor(header, key));
}

/** `decryptStreamChunks` as a `ReadableStream` (for a download or a `Response`). */
export function decryptingStream(source: ByteSource, header: BytesOrB64, key: BytesOrB64): ReadableStream<Uint8Array> {
  return readableOf(decryptStreamChunks(source, header, key));
}

/** Encrypts a whole file held in memory (tests, small files); `key` fresh when absent. */
export async function encryptStreamBytes(
  data: Uint8Array,
  key?: BytesOrB64,
): Promise<{ key: string; header: string; encrypted: Uint8Array<ArrayBuffer> }> {
  const encryptor = await createChunkEncryptor(key);
  const encrypted = new Uint8Array(streamEncryptedSize(data.length));
  let written = 0;
  let offset = 0;
  do {
    const end = Math.min(offset + STREAM_CHUNK_BYTES, data.length);
    const chunk = encryptor.push(data.subarray(offset, end), end === data.length);
    encrypted.set(chunk, written);
    written += chunk.length;
    offset = end;
  } while (offset < data.length);
  return { key: encryptor.key, header: encryptor.header, encrypted };
}

/** Decrypts a whole encrypted file held in memory; throws `DecryptionError` like `decryptStreamChunks`. */
export async function decryptStreamBytes(
  encrypted: Uint8Array,
  header: BytesOrB64,
  key: BytesOrB64,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await new Response(decryptingStream([encrypted], header, key)).arrayBuffer());
}
