// The bounds of stored Argon2id parameters (docs/protocol.md#password-kdf), without libsodium: kdf.ts checks them
// before its runs, and so does argon2id-wasm.ts (a public link's password) where libsodium must not load.
import { bytesOf, type BytesOrB64 } from './encoding.ts';
import { KdfParamsError } from './errors.ts';

/** ops × mem of every accepted "sensitive" derivation: 4 × 1 GiB (docs/protocol.md#password-kdf). */
export const SENSITIVE_KDF_STRENGTH = 4 * 1024 * 1024 * 1024;
export const SALT_BYTES = 16;

/**
 * The bounds a client accepts for stored Argon2id parameters before running them
 * (docs/protocol.md#password-kdf): ops 1..64, memory 8 KiB..1 GiB in whole KiB, ops × memory at most
 * the 4 GiB of every sensitive derivation, and a 16-byte salt.
 */
export const KDF_BOUNDS = {
  minOpsLimit: 1,
  maxOpsLimit: 64,
  minMemLimit: 8 * 1024,
  maxMemLimit: 1024 * 1024 * 1024,
  maxStrength: SENSITIVE_KDF_STRENGTH,
} as const;

/** Throws `KdfParamsError` unless the parameters lie within `KDF_BOUNDS`. */
export function checkKdfParams({ salt, opsLimit, memLimit }: { salt: BytesOrB64; opsLimit: number; memLimit: number }) {
  if (!Number.isSafeInteger(opsLimit) || opsLimit < KDF_BOUNDS.minOpsLimit || opsLimit > KDF_BOUNDS.maxOpsLimit) {
    throw new KdfParamsError('opsLimit', `opsLimit ${String(opsLimit)} is outside 1..64`);
  }
  if (
    !Number.isSafeInteger(memLimit) ||
    memLimit < KDF_BOUNDS.minMemLimit ||
    memLimit > KDF_BOUNDS.maxMemLimit ||
    memLimit % 1024 !== 0
  ) {
    throw new KdfParamsError('memLimit', `memLimit ${String(memLimit)} is outside 8 KiB..1 GiB or not whole KiB`);
  }
  if (opsLimit * memLimit > KDF_BOUNDS.maxStrength) {
    throw new KdfParamsError('opsLimit', `opsLimit × memLimit exceeds ${String(KDF_BOUNDS.maxStrength)}`);
  }
  let saltLength: number;
  try {
    saltLength = bytesOf(salt).length;
  } catch {
    saltLength = -1;
  }
  if (saltLength !== SALT_BYTES) throw new KdfParamsError('salt', 'the salt is not 16 bytes of base64');
}
