// What a benchmark account needs that the server never opens: key attributes of random bytes in the
// protocol's sizes (docs/protocol.md#key-attributes), at the interactive KDF strength.
import { randomBytes } from 'node:crypto';

const b64 = (length) => randomBytes(length).toString('base64');

export function randomKeyAttributes() {
  return {
    kekSalt: b64(16),
    opsLimit: 16,
    memLimit: 268435456,
    encryptedKey: b64(48),
    keyDecryptionNonce: b64(24),
    publicKey: b64(32),
    encryptedSecretKey: b64(48),
    secretKeyDecryptionNonce: b64(24),
  };
}
