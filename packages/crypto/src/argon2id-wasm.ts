// Argon2id (v1.3, parallelism 1, 32 bytes: libsodium's crypto_pwhash ALG_ARGON2ID13, docs/protocol.md#password-kdf)
// on hash-wasm's WebAssembly, for where libsodium must not load: a public album's password, hashed only once one is
// submitted (album-job.ts imports this module then). The parameters are checked against the same bounds first
// (KdfParamsError); argon2id-wasm.test.ts compares the keys with libsodium's.
import { argon2id } from 'hash-wasm';

import { bytesOf, toB64, utf8Bytes, type BytesOrB64 } from './encoding.ts';
import { checkKdfParams } from './kdf-bounds.ts';

/** kdf.ts's `deriveKeyB64` (b64 of 32 bytes) within `KDF_BOUNDS`, without libsodium; hash-wasm refuses an empty password. */
export async function argon2idKeyB64(
  password: string,
  salt: BytesOrB64,
  opsLimit: number,
  memLimit: number,
): Promise<string> {
  checkKdfParams({ salt, opsLimit, memLimit });
  const key = await argon2id({
    password: utf8Bytes(password),
    salt: bytesOf(salt),
    parallelism: 1,
    iterations: opsLimit,
    memorySize: memLimit / 1024,
    hashLength: 32,
    outputType: 'binary',
  });
  return toB64(key);
}
