// Key derivation (docs/protocol.md#password-kdf, #login-subkey): Argon2id from a password, the "sensitive" strategy with its
// memory fallback, the interactive parameters, and libsodium's subkey KDF for the SRP login subkey.
import { bytesOf, toB64, utf8Bytes, type BytesOrB64 } from './encoding.ts';
import { InsufficientMemoryError } from './errors.ts';
import { SALT_BYTES, SENSITIVE_KDF_STRENGTH } from './kdf-bounds.ts';
import { sodiumReady } from './sodium.ts';

export { checkKdfParams, KDF_BOUNDS, SALT_BYTES, SENSITIVE_KDF_STRENGTH } from './kdf-bounds.ts';

/** The Argon2id parameters that travel with a derived key (key attributes' kekSalt/opsLimit/memLimit). */
export type KdfParams = {
  salt: string; // b64, 16 bytes
  opsLimit: number;
  memLimit: number; // bytes
};

export type DerivedKeyB64 = KdfParams & {
  key: string; // b64, 32 bytes
};

/** The lowest memory the web client and the server accept for a sensitive derivation: 128 MiB. */
export const MIN_SENSITIVE_MEM_LIMIT = 128 * 1024 * 1024;
export const INTERACTIVE_OPS_LIMIT = 2;
export const INTERACTIVE_MEM_LIMIT = 64 * 1024 * 1024;
const MODERATE_MEM_LIMIT = 256 * 1024 * 1024;

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

/** One Argon2id run: its parameters and when it ran (ms since the Unix epoch, fractional). */
export type Argon2Run = {
  opsLimit: number;
  memLimit: number;
  start: number;
  end: number;
  /** False when it failed (the sensitive derivation then retries with less memory). */
  ok: boolean;
};

/** Called after every Argon2id run, failed or not, so that callers can count and time them. */
export type Argon2RunObserver = (run: Argon2Run) => void;

const epochNow = () => performance.timeOrigin + performance.now();

/** `deriveKeyB64` that reports the run to `onRun`. */
export async function deriveKeyObservedB64(
  password: string,
  salt: BytesOrB64,
  opsLimit: number,
  memLimit: number,
  onRun?: Argon2RunObserver,
): Promise<string> {
  await sodiumReady();
  const start = epochNow();
  try {
    const key = await deriveKeyB64(password, salt, opsLimit, memLimit);
    onRun?.({ opsLimit, memLimit, start, end: epochNow(), ok: true });
    return key;
  } catch (error) {
    onRun?.({ opsLimit, memLimit, start, end: epochNow(), ok: false });
    throw error;
  }
}

/**
 * The "sensitive" derivation used at signup and password change: start at 256 MiB × 16 ops and, while
 * Argon2id fails (allocation), halve the memory and double the ops (keeping the product), down to 128 MiB.
 * Every attempt is reported to `onRun`.
 */
export async function deriveSensitiveKeyB64(password: string, onRun?: Argon2RunObserver): Promise<DerivedKeyB64> {
  const sodium = await sodiumReady();
  const salt = toB64(sodium.randombytes_buf(SALT_BYTES));
  let memLimit = MODERATE_MEM_LIMIT;
  let opsLimit = SENSITIVE_KDF_STRENGTH / memLimit;
  for (;;) {
    try {
      const key = await deriveKeyObservedB64(password, salt, opsLimit, memLimit, onRun);
      return { key, salt, opsLimit, memLimit };
    } catch (error) {
      memLimit /= 2;
      opsLimit *= 2;
      if (memLimit < MIN_SENSITIVE_MEM_LIMIT) throw new InsufficientMemoryError({ cause: error });
    }
  }
}

/** The local-only derivation of docs/protocol.md#interactive-key-attributes (ops 2, 64 MiB) with a fresh salt. */
export async function deriveInteractiveKeyB64(password: string, onRun?: Argon2RunObserver): Promise<DerivedKeyB64> {
  const sodium = await sodiumReady();
  const salt = toB64(sodium.randombytes_buf(SALT_BYTES));
  const key = await deriveKeyObservedB64(password, salt, INTERACTIVE_OPS_LIMIT, INTERACTIVE_MEM_LIMIT, onRun);
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
