// Turning two-factor authentication (TOTP) on and off (docs/protocol.md#two-factor). The secret the
// server hands out is stored back with it encrypted under the RECOVERY key, so that a user who loses
// the authenticator can remove the second factor with the recovery key alone
// (docs/protocol.md#lost-second-factor). See: [Note: Two-factor secret]
//
// [Note: Two-factor secret]
// `encryptedTwoFactorSecret` / `twoFactorSecretDecryptionNonce` = Box(data) under the recovery key,
// where data is the 32-character base32 `secretCode` read as BASE64 (24 bytes), not its UTF-8 text:
// that is what Ente's clients do, and /two-factor/recover base64-encodes the opened bytes to get the
// text back. The crypto worker's encryptTwoFactorSecret does exactly that.
import { cryptoWorker } from '@ente/crypto/client.ts';
import { twoFactorSetupResponseSchema } from '@ente/protocol/two-factor.ts';
import { post, postJSON } from '@ente/shared/http.ts';
import { updateSavedUser } from '@ente/shared/storage/local-storage.ts';

import { recoveryKeyOf } from './account-recovery-key.ts';
import { toAccountsError } from './errors.ts';

/**
 * The otpauth URI an authenticator app reads from the QR code, built as the server builds its own QR
 * code (docs/protocol.md#two-factor).
 */
export function twoFactorURI(email: string, secretCode: string): string {
  return (
    `otpauth://totp/ente:${encodeURIComponent(email)}` +
    `?algorithm=SHA1&digits=6&issuer=ente&period=30&secret=${secretCode}`
  );
}

/** Asks the server for a new pending secret (valid 10 minutes); its base32 text. */
export async function startTwoFactorSetup(): Promise<string> {
  try {
    const { secretCode } = await postJSON('/users/two-factor/setup', undefined, twoFactorSetupResponseSchema, {
      auth: true,
    });
    return secretCode;
  } catch (e) {
    throw toAccountsError(e, 'session');
  }
}

/**
 * Turns two-factor on with a code of the authenticator app for `secretCode`. Throws AccountsError:
 * `wrongCode` (401: a wrong code, or the pending secret expired), `tooManyAttempts`, `rateLimited`,
 * `sessionExpired`, `network`, `server`.
 */
export async function enableTwoFactor(code: string, secretCode: string, masterKey: string): Promise<void> {
  const recoveryKey = await recoveryKeyOf(masterKey);
  const crypto = await cryptoWorker();
  const box = await crypto.encryptTwoFactorSecret(secretCode, recoveryKey);
  try {
    await post(
      '/users/two-factor/enable',
      { code, encryptedTwoFactorSecret: box.encryptedData, twoFactorSecretDecryptionNonce: box.nonce },
      { auth: true },
    );
  } catch (e) {
    throw toAccountsError(e, 'twoFactorVerify');
  }
  await updateSavedUser({ isTwoFactorEnabled: true });
}

/** Turns two-factor off (no code needed while signed in). */
export async function disableTwoFactor(): Promise<void> {
  try {
    await post('/users/two-factor/disable', undefined, { auth: true });
  } catch (e) {
    throw toAccountsError(e, 'session');
  }
  await updateSavedUser({ isTwoFactorEnabled: false });
}
