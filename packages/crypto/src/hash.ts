// The two hashes of an upload, fed one piece at a time so that a file is never held whole:
// BLAKE2b-512 of the plaintext (libsodium `crypto_generichash`, 64-byte output), whose b64 is the `hash` of
// Ente's file metadata (duplicates are found by it), and MD5 of the ciphertext (hash-wasm), whose b64 is the
// `Content-MD5` of each PUT to the object store.
import { createMD5 } from 'hash-wasm';

import { toB64 } from './encoding.ts';
import { sodiumReady } from './sodium.ts';

/** A hash being computed. `digestB64` ends it: later calls throw. */
export interface StreamingHash {
  update(data: Uint8Array): void;
  digestB64(): string;
}

const BLAKE2B_512_BYTES = 64;

/** Streaming BLAKE2b-512, unkeyed (Ente's metadata `hash`). */
export async function createBlake2b512Hash(): Promise<StreamingHash> {
  const sodium = await sodiumReady();
  const state = sodium.crypto_generichash_init(null, BLAKE2B_512_BYTES);
  let ended = false;
  return {
    update(data) {
      if (ended) throw new Error('the hash already ended');
      sodium.crypto_generichash_update(state, data);
    },
    digestB64() {
      if (ended) throw new Error('the hash already ended');
      ended = true;
      return toB64(sodium.crypto_generichash_final(state, BLAKE2B_512_BYTES));
    },
  };
}

/** Streaming MD5 (the object store's `Content-MD5`; an integrity check, not a security property). */
export async function createMd5Hash(): Promise<StreamingHash> {
  const md5 = await createMD5();
  md5.init();
  let ended = false;
  return {
    update(data) {
      if (ended) throw new Error('the hash already ended');
      md5.update(data);
    },
    digestB64() {
      if (ended) throw new Error('the hash already ended');
      ended = true;
      return toB64(md5.digest('binary'));
    },
  };
}

/** BLAKE2b-512 of bytes held in memory, b64. */
export async function blake2b512B64(data: Uint8Array): Promise<string> {
  const hash = await createBlake2b512Hash();
  hash.update(data);
  return hash.digestB64();
}

/** MD5 of bytes held in memory, b64. */
export async function md5B64(data: Uint8Array): Promise<string> {
  const hash = await createMd5Hash();
  hash.update(data);
  return hash.digestB64();
}
