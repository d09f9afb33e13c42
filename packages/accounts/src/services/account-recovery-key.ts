// The recovery key of a signed-in account (docs/protocol.md#recovery-key): opened with the masterKey
// from `recoveryKeyEncryptedWithMasterKey`, or made and registered now for an account that was created
// without one (`PUT /users/recovery-key`). Settings shows it again as 24 words after the password has
// been typed once more; two-factor setup encrypts the secret under it.
import { cryptoWorker } from '@ente/crypto/client.ts';
import { put } from '@ente/shared/http.ts';
import {
  savedKeyAttributes,
  saveKeyAttributes,
  type StoredKeyAttributes,
} from '@ente/shared/storage/account-storage.ts';

import { AccountsError, toAccountsError } from './errors.ts';

/** The recovery key (b64), registering a new one first when the account has none. */
export async function recoveryKeyOf(masterKey: string): Promise<string> {
  const keyAttributes = ensureKeyAttributes();
  const crypto = await cryptoWorker();
  if (hasRecoveryKey(keyAttributes)) return crypto.recoveryKeyFromMasterKey(masterKey, keyAttributes);
  const { recoveryKey, ...fields } = await crypto.generateRecoveryKeyAttributes(masterKey);
  try {
    await put('/users/recovery-key', fields, { auth: true });
  } catch (e) {
    throw toAccountsError(e, 'session');
  }
  saveKeyAttributes({ ...keyAttributes, ...fields });
  return recoveryKey;
}

/**
 * The recovery key as 24 words, for someone who just typed the account's password: the password opens
 * the masterKey with the local key attributes (one derivation, with their stored parameters). Throws
 * AccountsError `incorrectPassword` for a wrong password.
 */
export async function recoveryWordsWithPassword(password: string): Promise<string[]> {
  const masterKey = await masterKeyWithPassword(password);
  const words = await (await cryptoWorker()).recoveryKeyToWords(await recoveryKeyOf(masterKey));
  return words.split(' ');
}

/**
 * The masterKey, opened with the account's password and the local key attributes: how a page checks the
 * password typed again before a sensitive step (the recovery key, an export of the codes). Throws
 * AccountsError `incorrectPassword` for a wrong password.
 */
export async function masterKeyWithPassword(password: string): Promise<string> {
  const keyAttributes = ensureKeyAttributes();
  const crypto = await cryptoWorker();
  try {
    const kek = await crypto.deriveKEK(password, keyAttributes);
    return await crypto.decryptMasterKey(kek, keyAttributes);
  } catch (e) {
    throw toAccountsError(e, 'srpLogin');
  }
}

function ensureKeyAttributes(): StoredKeyAttributes {
  const keyAttributes = savedKeyAttributes();
  if (!keyAttributes) throw new AccountsError('sessionExpired');
  return keyAttributes;
}

function hasRecoveryKey(keyAttributes: StoredKeyAttributes): boolean {
  return !!keyAttributes.recoveryKeyEncryptedWithMasterKey && !!keyAttributes.recoveryKeyDecryptionNonce;
}
