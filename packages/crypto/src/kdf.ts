// Key derivation (docs/protocol.md#password-kdf, #login-subkey): Argon2id from a password, the "sensitive" strategy with its
// memory fallback, the interactive parameters, and libsodium's subkey KDF for the SRP login subkey.
import { bytesOf, toB64, utf8Bytes, type BytesOrB64 } from './encoding.ts';
import { sodiumReady } from './sodium.ts';

/** The Argon2id parameters that travel with a derived key (key attributes' kekSalt/opsLimit/memLimit). */
export interface KdfParams {
  salt: string; // b64, 16 bytes
  opsLimit: number;
  memLimit: number; // bytes
}

export interface DerivedKeyB64 extends KdfParams {
  key: string; // b64, 32 bytes
}

/** ops × mem of every accepted "sensitive" derivation: 4 × 1 GiB (docs/protocol.md#password-kdf). */
export const SENSITIVE_KDF_STRENGTH = 4 * 1024 * 1024 * 1024;
/** The lowest memory the web client and the server accept for a sensitive derivation: 128 MiB. */
export const MIN_SENSITIVE_MEM_LIMIT = 128 * 1024 * 1024;
export const INTERACTIVE_OPS_LIMIT = 2;
export const INTERACTIVE_MEM_LIMIT = 64 * 1024 * 1024;
const MODERATE_MEM_LIMIT = 256 * 1024 * 1024;
export const SALT_BYTES = 16;

/** Argon2id v1.3, parallelism 1, 32-byte output; the password is taken as UTF-8. */
export async function deriveKeyBytes(
  password: string,
  salt: BytesOrB64,
  opsLimit: number,
  memLimit: number,
): Promise<Uint8Array> {
  const sodium = await sodiumReady();
  return sodium.crypto_pwhash(
    32,
    utf8Bytes(password),
    bytesOf(salt),
    opsLimit,
    memLimit,
    sodium.crypto_pwhash_ALG_ARGON2ID13,
  );
}

export async function deriveKeyB64(password: string, salt: BytesOrB64, opsLimit: number, memLimit: number) {
  return toB64(await deriveKeyBytes(password, salt, opsLimit, memLimit));
}

/**
 * The "sensitive" derivation used at signup and password change: start at 256 MiB × 16 ops and, while
 * allocation fails, halve the memory and double the ops (keeping the product), down to 128 MiB.
 */
export async function deriveSensitiveKeyB64(password: string): Promise<DerivedKeyB64> {
  const sodium = await sodiumReady();
  const salt = toB64(sodium.randombytes_buf(SALT_BYTES));
  let memLimit = MODERATE_MEM_LIMIT;
  let opsLimit = SENSITIVE_KDF_STRENGTH / memLimit;
  for (;;) {
    try {
      const key = await deriveKeyB64(password, salt, opsLimit, memLimit);
      return { key, salt, opsLimit, memLimit };
    } catch (error) {
      memLimit /= 2;
      opsLimit *= 2;
      if (memLimit < MIN_SENSITIVE_MEM_LIMIT) throw new InsufficientMemoryError({ cause: error });
    }
  }
}

/** The local-only derivation of docs/protocol.md#interactive-key-attributes (ops 2, 64 MiB) with a fresh salt. */
export async function deriveInteractiveKeyB64(password: string): Promise<DerivedKeyB64> {
  const sodium = await sodiumReady();
  const salt = toB64(sodium.randombytes_buf(SALT_BYTES));
  const key = await deriveKeyB64(password, salt, INTERACTIVE_OPS_LIMIT, INTERACTIVE_MEM_LIMIT);
  return { key, salt, opsLimit: INTERACTIVE_OPS_LIMIT, memLimit: INTERACTIVE_MEM_LIMIT };
}

/** crypto_kdf_derive_from_key: `length` bytes for `subkeyID` under the 8-character `context`. */
export async function deriveSubKeyBytes(
  key: BytesOrB64,
  length: number,
  subkeyID: number,
  context: string,
): Promise<Uint8Array> {
  const sodium = await sodiumReady();
  return sodium.crypto_kdf_derive_from_key(length, subkeyID, context, bytesOf(key));
}

/** The SRP password of docs/protocol.md#login-subkey: the first 16 bytes of subkey 1 of context "loginctx". */
export async function deriveLoginSubKeyBytes(kek: BytesOrB64): Promise<Uint8Array> {
  return (await deriveSubKeyBytes(kek, 32, 1, 'loginctx')).slice(0, 16);
}

export async function deriveLoginSubKeyB64(kek: BytesOrB64): Promise<string> {
  return toB64(await deriveLoginSubKeyBytes(kek));
}

export class InsufficientMemoryError extends Error {
  override name = 'InsufficientMemoryError';
  constructor(options?: { cause?: unknown }) {
    super('insufficient memory for key derivation', options);
  }
}
