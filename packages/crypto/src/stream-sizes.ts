// The sizes of a Stream (stream.ts) without libsodium, so that page code can plan an upload or show a size
// without loading the wasm: 4 MiB plaintext chunks, each encrypted one 17 bytes larger.

/** Plaintext bytes per chunk (Ente's `ENCRYPTION_CHUNK_SIZE`). */
export const STREAM_CHUNK_BYTES = 4 * 1024 * 1024;
/** What each chunk grows by: a 1-byte tag and a 16-byte MAC. */
export const STREAM_CHUNK_OVERHEAD = 17;
/** Bytes per encrypted chunk, except the last. */
export const STREAM_ENCRYPTED_CHUNK_BYTES = STREAM_CHUNK_BYTES + STREAM_CHUNK_OVERHEAD;

/** The size of the encrypted object of a file of `plaintextBytes` (an empty file is one chunk). */
export function streamEncryptedSize(plaintextBytes: number): number {
  const chunks = Math.max(1, Math.ceil(plaintextBytes / STREAM_CHUNK_BYTES));
  return plaintextBytes + chunks * STREAM_CHUNK_OVERHEAD;
}

/** The plaintext size of an encrypted object of `encryptedBytes` (the inverse of streamEncryptedSize). */
export function streamPlaintextSize(encryptedBytes: number): number {
  return Math.max(0, encryptedBytes - Math.ceil(encryptedBytes / STREAM_ENCRYPTED_CHUNK_BYTES) * STREAM_CHUNK_OVERHEAD);
}
