// Stream (docs/protocol.md#crypto-primitives): a file's bytes as secretstream XChaCha20-Poly1305 in 4 MiB
// plaintext chunks, each pushed with TAG_MESSAGE and the last with TAG_FINAL, no additional data; every
// encrypted chunk is its plaintext + 17 bytes and the 24-byte header travels beside the object
// (`file.decryptionHeader`). An empty file is one FINAL chunk of 0 bytes (17 bytes), so that every stream
// ends with FINAL and a truncated object is always detected ([decisions](../../../docs/decisions.md#the-photos-app)).
// One chunk at a time, so that a worker never holds a whole large file.
import { bytesOf, toB64, type BytesOrB64 } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import { sodiumReady } from './sodium.ts';
import { STREAM_CHUNK_BYTES, STREAM_ENCRYPTED_CHUNK_BYTES, streamEncryptedSize } from './stream-sizes.ts';

export * from './stream-sizes.ts';

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

/** Decrypts one file, chunk after chunk. */
export interface ChunkDecryptor {
  /**
   * Opens the next encrypted chunk; `last` when it carried TAG_FINAL. Throws `DecryptionError` when it does
   * not authenticate, or when it comes after the FINAL chunk.
   */
  pull(chunk: Uint8Array): { plaintext: Uint8Array; last: boolean };
  /** True once the FINAL chunk was opened. */
  readonly ended: boolean;
}

export async function createChunkDecryptor(header: BytesOrB64, key: BytesOrB64): Promise<ChunkDecryptor> {
  const sodium = await sodiumReady();
  let state: ReturnType<typeof sodium.crypto_secretstream_xchacha20poly1305_init_pull>;
  try {
    state = sodium.crypto_secretstream_xchacha20poly1305_init_pull(bytesOf(header), bytesOf(key));
  } catch {
    throw new DecryptionError('stream header or key could not be used');
  }
  let ended = false;
  return {
    get ended() {
      return ended;
    },
    pull(chunk) {
      if (ended) throw new DecryptionError('data after the final chunk');
      let result: { message: Uint8Array; tag: number } | false;
      try {
        result = sodium.crypto_secretstream_xchacha20poly1305_pull(state, chunk, null);
      } catch {
        throw new DecryptionError('stream chunk could not be opened');
      }
      if (!result) throw new DecryptionError('stream chunk could not be opened');
      ended = result.tag === sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL;
      return { plaintext: result.message, last: ended };
    },
  };
}

/** A source of bytes cut anywhere: a `ReadableStream` (a fetch body), an async iterable or an array. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

async function* bytesFrom(source: ByteSource): AsyncGenerator<Uint8Array> {
  // Safari's ReadableStream is not async-iterable: read it through its reader.
  if (Symbol.asyncIterator in source || Symbol.iterator in source) {
    yield* source as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Re-cuts `source` into pieces of exactly `size` bytes (the last one shorter, never empty unless the source
 * is). Copies only when a piece straddles the incoming pieces.
 */
export async function* recut(source: ByteSource, size: number): AsyncGenerator<Uint8Array> {
  let pending: Uint8Array | undefined;
  let filled = 0;
  for await (const incoming of bytesFrom(source)) {
    let offset = 0;
    while (offset < incoming.length) {
      if (filled === 0 && incoming.length - offset >= size) {
        yield incoming.subarray(offset, offset + size);
        offset += size;
        continue;
      }
      pending ??= new Uint8Array(size);
      const take = Math.min(size - filled, incoming.length - offset);
      pending.set(incoming.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === size) {
        yield pending;
        pending = undefined;
        filled = 0;
      }
    }
  }
  if (filled > 0 && pending) yield pending.subarray(0, filled);
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
  const decryptor = await createChunkDecryptor(header, key);
  for await (const chunk of recut(source, STREAM_ENCRYPTED_CHUNK_BYTES)) {
    yield decryptor.pull(chunk).plaintext;
  }
  if (!decryptor.ended) throw new DecryptionError('stream ended before its final chunk');
}

/** `decryptStreamChunks` as a `ReadableStream` (for a download or a `Response`). */
export function decryptingStream(source: ByteSource, header: BytesOrB64, key: BytesOrB64): ReadableStream<Uint8Array> {
  const chunks = decryptStreamChunks(source, header, key);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
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
