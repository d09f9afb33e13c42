// One pass over a file for its upload (docs/protocol.md#photos): the plaintext is hashed (BLAKE2b-512, the
// metadata `hash`), encrypted as a Stream under the file key, and the ciphertext, handed on in order to
// `write`, is MD5-hashed per upload part of `partLength` bytes (the server wants every part's MD5 before it
// hands out the part URLs). Nothing but one 4 MiB chunk is held at a time; the caller decides where the
// ciphertext goes (memory, a staging file). Used by the photos app's upload worker and by the server's
// end-to-end test of what that upload produces.
import type { BytesOrB64 } from './encoding.ts';
import { createBlake2b512Hash, createMd5Hash, type StreamingHash } from './hash.ts';
import { createChunkEncryptor, recut, STREAM_CHUNK_BYTES, type ByteSource } from './stream.ts';

/** What the upload of one file needs to know about its encrypted object. Keys and hashes are b64. */
export interface FileEncryption {
  /** The file key (fresh unless one was given). */
  key: string;
  /** The Stream header (`file.decryptionHeader`). */
  header: string;
  /** BLAKE2b-512 of the plaintext. */
  hash: string;
  plaintextSize: number;
  /** Bytes of the encrypted object. */
  size: number;
  partLength: number;
  /** MD5 of each `partLength` bytes of the encrypted object, the last part shorter (one entry at least). */
  partMd5s: string[];
}

export interface FileEncryptionOptions {
  key?: BytesOrB64;
  partLength: number;
  /** Receives the ciphertext in order; awaited before the next chunk is read. */
  write(ciphertext: Uint8Array): void | Promise<void>;
  /** Called after each chunk with the plaintext bytes done so far. */
  onProgress?(plaintextBytes: number): void;
  /** Stops between chunks (throws the signal's reason). */
  signal?: AbortSignal;
}

export async function encryptFileForUpload(
  source: ByteSource,
  options: FileEncryptionOptions,
): Promise<FileEncryption> {
  const { partLength } = options;
  if (!Number.isSafeInteger(partLength) || partLength <= 0)
    throw new RangeError('partLength must be a positive integer');
  const encryptor = await createChunkEncryptor(options.key);
  const plaintextHash = await createBlake2b512Hash();
  const parts = await PartHasher.create(partLength);
  let plaintextSize = 0;
  let size = 0;

  const push = async (chunk: Uint8Array, last: boolean) => {
    plaintextHash.update(chunk);
    const encrypted = encryptor.push(chunk, last);
    await parts.update(encrypted);
    await options.write(encrypted);
    plaintextSize += chunk.length;
    size += encrypted.length;
    options.onProgress?.(plaintextSize);
  };

  // One chunk of lookahead: a chunk is pushed as the last only once the source has ended after it.
  let held: Uint8Array | undefined;
  for await (const chunk of recut(source, STREAM_CHUNK_BYTES)) {
    options.signal?.throwIfAborted();
    if (held) await push(held, false);
    // recut may hand back a view of the caller's buffer; keep a copy across the next read.
    held = chunk.slice();
  }
  options.signal?.throwIfAborted();
  await push(held ?? new Uint8Array(0), true);

  return {
    key: encryptor.key,
    header: encryptor.header,
    hash: plaintextHash.digestB64(),
    plaintextSize,
    size,
    partLength,
    partMd5s: parts.finish(),
  };
}

/** BLAKE2b-512 (b64) of a file read from `source`, for the duplicate check before any encryption. */
export async function hashFileB64(
  source: ByteSource,
  options: { onProgress?(bytes: number): void; signal?: AbortSignal } = {},
): Promise<string> {
  const hash = await createBlake2b512Hash();
  let done = 0;
  for await (const piece of recut(source, STREAM_CHUNK_BYTES)) {
    options.signal?.throwIfAborted();
    hash.update(piece);
    done += piece.length;
    options.onProgress?.(done);
  }
  return hash.digestB64();
}

/** MD5s of consecutive `partLength` slices of a byte sequence fed in arbitrary pieces. */
class PartHasher {
  private filled = 0;
  private readonly md5s: string[] = [];
  private readonly partLength: number;
  private current: StreamingHash;

  private constructor(partLength: number, first: StreamingHash) {
    this.partLength = partLength;
    this.current = first;
  }

  static async create(partLength: number): Promise<PartHasher> {
    return new PartHasher(partLength, await createMd5Hash());
  }

  async update(bytes: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      if (this.filled === this.partLength) {
        this.md5s.push(this.current.digestB64());
        this.current = await createMd5Hash();
        this.filled = 0;
      }
      const take = Math.min(this.partLength - this.filled, bytes.length - offset);
      this.current.update(bytes.subarray(offset, offset + take));
      this.filled += take;
      offset += take;
    }
  }

  finish(): string[] {
    if (this.filled > 0) this.md5s.push(this.current.digestB64());
    return this.md5s;
  }
}
