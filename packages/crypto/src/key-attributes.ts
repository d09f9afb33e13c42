// Key attributes at signup (docs/protocol.md#key-attributes, #generating-keys-at-sign-up): the master key wrapped under the password KEK and
// the recovery key, the recovery key wrapped under the master key, and an X25519 keypair whose secret
// key is wrapped under the master key.
import { encryptBoxB64 } from './box.ts';
import { deriveSensitiveKeyB64, type DerivedKeyB64 } from './kdf.ts';
import { generateKeyB64, generateKeyPairB64 } from './keys.ts';

/** The wire object of docs/protocol.md#key-attributes (every binary value b64). */
export type KeyAttributesB64 = {
  kekSalt: string;
  opsLimit: number;
  memLimit: number;
  encryptedKey: string;
  keyDecryptionNonce: string;
  publicKey: string;
  encryptedSecretKey: string;
  secretKeyDecryptionNonce: string;
  masterKeyEncryptedWithRecoveryKey: string;
  masterKeyDecryptionNonce: string;
  recoveryKeyEncryptedWithMasterKey: string;
  recoveryKeyDecryptionNonce: string;
  kekHash?: string;
};

export interface GeneratedKeys {
  keyAttributes: KeyAttributesB64;
  masterKey: string; // b64
  recoveryKey: string; // b64
  kek: string; // b64, the sensitive KEK (needed for the SRP login subkey)
  secretKey: string; // b64 X25519 secret key
}

/**
 * `generateKeysAndAttributes(password)` of docs/protocol.md#generating-keys-at-sign-up. `derive` defaults to the sensitive strategy;
 * tests may pass a precomputed KEK (e.g. the vector of docs/protocol.md#test-vectors) to avoid seconds of Argon2id.
 */
export async function generateKeyAttributes(
  password: string,
  derive: (password: string) => Promise<DerivedKeyB64> = deriveSensitiveKeyB64,
): Promise<GeneratedKeys> {
  const masterKey = await generateKeyB64();
  const recoveryKey = await generateKeyB64();
  const kek = await derive(password);
  const { publicKey, secretKey } = await generateKeyPairB64();
  const wrappedMaster = await encryptBoxB64(masterKey, kek.key);
  const masterUnderRecovery = await encryptBoxB64(masterKey, recoveryKey);
  const recoveryUnderMaster = await encryptBoxB64(recoveryKey, masterKey);
  const wrappedSecret = await encryptBoxB64(secretKey, masterKey);
  return {
    keyAttributes: {
      kekSalt: kek.salt,
      opsLimit: kek.opsLimit,
      memLimit: kek.memLimit,
      encryptedKey: wrappedMaster.encryptedData,
      keyDecryptionNonce: wrappedMaster.nonce,
      publicKey,
      encryptedSecretKey: wrappedSecret.encryptedData,
      secretKeyDecryptionNonce: wrappedSecret.nonce,
      masterKeyEncryptedWithRecoveryKey: masterUnderRecovery.encryptedData,
      masterKeyDecryptionNonce: masterUnderRecovery.nonce,
      recoveryKeyEncryptedWithMasterKey: recoveryUnderMaster.encryptedData,
      recoveryKeyDecryptionNonce: recoveryUnderMaster.nonce,
    },
    masterKey,
    recoveryKey,
    kek: kek.key,
    secretKey,
  };
}
