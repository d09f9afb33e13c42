// For tests only: a signed-in account in this jsdom's storage, with real keys, as the account pages
// and the settings find it after a login (docs/protocol.md#browser-storage): the user record and its
// kv mirror, the local (interactive) key attributes, the SRP attributes and, when unlocked, the
// wrapped masterKey of this tab. The local key attributes use the small Argon2id parameters that
// deriveKEK accepts (ops 1, 8 KiB), so that typing the password again costs nothing.
import { cryptoAPI } from '@ente/crypto/api.ts';
import { deriveKeyB64 } from '@ente/crypto/kdf.ts';
import { generateKeyPairB64 } from '@ente/crypto/keys.ts';
import {
  saveEncryptionKeyStash,
  saveKeyAttributes,
  saveSrpAttributes,
  type StoredKeyAttributes,
} from '@ente/shared/storage/account-storage.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';

export const testApiOrigin = 'https://api.ente.com';
export const testPassword = 'correct horse';
/** The session token of the test account (padded b64url of 32 bytes, as the server issues them). */
export const testToken = 'wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t8=';
export const testEmail = 'ada@example.org';

/**
 * Argon2id of `password` with salt 0x00..0x0f at ops 16 / 256 MiB: the real output of a sensitive
 * derivation (docs/protocol.md#test-vectors), for tests that must not spend seconds deriving it.
 */
export const sensitiveVector = {
  password: 'password',
  key: 'o2F5q2WE3xx6dyxyBM0KOKyQZ8XVPhOOemaTDzMuLvg=',
  salt: 'AAECAwQFBgcICQoLDA0ODw==',
  opsLimit: 16,
  memLimit: 268435456,
};

const smallKdf = { kekSalt: 'EBESExQVFhcYGRobHB0eHw==', opsLimit: 1, memLimit: 8192 };

export interface TestAccount {
  email: string;
  token: string;
  masterKey: string;
  /** Undefined for an account made without recovery fields. */
  recoveryKey: string | undefined;
  keyAttributes: StoredKeyAttributes;
}

export interface TestAccountOptions {
  /** Keep the masterKey in session storage (this tab unlocked). Default true. */
  unlocked?: boolean;
  /** Give the key attributes the four recovery fields. Default true. */
  withRecoveryKey?: boolean;
}

export async function saveTestAccount({
  unlocked = true,
  withRecoveryKey = true,
}: TestAccountOptions = {}): Promise<TestAccount> {
  const masterKey = await cryptoAPI.generateKey();
  const kek = await deriveKeyB64(testPassword, smallKdf.kekSalt, smallKdf.opsLimit, smallKdf.memLimit);
  const wrapped = await cryptoAPI.encryptBox(masterKey, kek);
  const keyPair = await generateKeyPairB64();
  const secretKey = await cryptoAPI.encryptBox(keyPair.secretKey, masterKey);
  let recoveryKey: string | undefined;
  let recoveryFields = {};
  if (withRecoveryKey) {
    const generated = await cryptoAPI.generateRecoveryKeyAttributes(masterKey);
    ({ recoveryKey, ...recoveryFields } = generated);
  }
  const keyAttributes: StoredKeyAttributes = {
    ...smallKdf,
    encryptedKey: wrapped.encryptedData,
    keyDecryptionNonce: wrapped.nonce,
    publicKey: keyPair.publicKey,
    encryptedSecretKey: secretKey.encryptedData,
    secretKeyDecryptionNonce: secretKey.nonce,
    ...recoveryFields,
  };
  await saveUser({ id: 7, email: testEmail, token: testToken });
  saveKeyAttributes(keyAttributes);
  saveSrpAttributes({
    srpUserID: '00000000-0000-4000-8000-000000000000',
    srpSalt: 'EBESExQVFhcYGRobHB0eHw==',
    memLimit: sensitiveVector.memLimit,
    opsLimit: sensitiveVector.opsLimit,
    kekSalt: sensitiveVector.salt,
    isEmailMFAEnabled: false,
  });
  if (unlocked) saveEncryptionKeyStash(await cryptoAPI.stashKey(masterKey));
  return { email: testEmail, token: testToken, masterKey, recoveryKey, keyAttributes };
}
