// The parts of opening a Stream (stream.ts) that need no cipher: bytes that arrive cut anywhere re-cut into
// encrypted chunks, each handed to a decryptor that knows when the FINAL one came, and the whole as a
// ReadableStream. Shared by stream.ts (libsodium) and open.ts (@noble/ciphers, for pages that must not load
// libsodium), so both refuse the same broken streams the same way.
import { DecryptionError } from './errors.ts';
import { STREAM_ENCRYPTED_CHUNK_BYTES } from './stream-sizes.ts';

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

/** A ChunkDecryptor over `open`, which opens one chunk (or throws `DecryptionError`) and tells whether it was FINAL. */
export function finalTrackingDecryptor(open: (chunk: Uint8Array) => { plaintext: Uint8Array; last: boolean }) {
  let ended = false;
  const decryptor: ChunkDecryptor = {
    get ended() {
      return ended;
    },
    pull(chunk) {
      if (ended) throw new DecryptionError('data after the final chunk');
      const opened = open(chunk);
      ended = opened.last;
      return opened;
    },
  };
  return decryptor;
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
 * The plaintext of `source`, one chunk at a time, opened by `decryptor`. Throws `DecryptionError` on a chunk that
 * does not open, data after the FINAL chunk, and a source that ends before it (a truncated object).
 */
export async function* openChunks(source: ByteSource, decryptor: ChunkDecryptor): AsyncGenerator<Uint8Array> {
  for await (const chunk of recut(source, STREAM_ENCRYPTED_CHUNK_BYTES)) {
    yield decryptor.pull(chunk).plaintext;
  }
  if (!decryptor.ended) throw new DecryptionError('stream ended before its final chunk');
}

/** `chunks` as a `ReadableStream` (for a download or a `Response`); cancelling it ends them. */
export function readableOf(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
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
