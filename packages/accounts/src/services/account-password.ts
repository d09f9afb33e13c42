// Changing the password (docs/protocol.md#change-password), also after a forgotten password
// (`/change-password?op=reset`, docs/protocol.md#forgot-password): the masterKey stays, only what
// wraps it changes. Every derivation runs in the crypto worker. See: [Note: Password change]
//
// [Note: Password change]
// 1. A new sensitive KEK (256 MiB × 16, with the memory fallback) and the masterKey boxed under it.
// 2. New SRP setup attributes from that KEK (new srpUserID and salt), `POST /users/srp/setup`, then
//    `POST /users/srp/update` with the five new key attribute fields. `logOutOtherDevices` is left out,
//    so the server signs every other device out (docs/protocol.md#auth-tokens).
// 3. The server's M2 must check out, else it is not the server that holds our verifier.
// 4. New interactive attributes replace the local ones, then the new SRP attributes are fetched and
//    saved (so this tab's session validity check does not take its own change for one made elsewhere).
import { cryptoWorker } from '@ente/crypto/client.ts';
import { srpAttributesResponseSchema, srpCompleteResponseSchema, srpSetupResponseSchema } from '@ente/protocol/srp.ts';
import { getJSON, postJSON } from '@ente/shared/http.ts';
import { log } from '@ente/shared/log.ts';
import { savedKeyAttributes, saveKeyAttributes, saveSrpAttributes } from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsError, toAccountsError } from './errors.ts';

/**
 * Re-wraps `masterKey` under `password` and registers the new SRP verifier. Throws AccountsError:
 * `insufficientMemory`, `serverNotAuthentic`, `tooManyAttempts`, `rateLimited`, `sessionExpired`,
 * `network`, `server`.
 */
export async function changePassword(password: string, masterKey: string): Promise<void> {
  const keyAttributes = savedKeyAttributes();
  const email = savedUser()?.email;
  if (!keyAttributes || !email) throw new AccountsError('sessionExpired');
  const crypto = await cryptoWorker();
  try {
    const kek = await crypto.deriveSensitiveKEK(password);
    const box = await crypto.encryptBox(masterKey, kek.key);
    const updatedKeyAttr = {
      kekSalt: kek.salt,
      opsLimit: kek.opsLimit,
      memLimit: kek.memLimit,
      encryptedKey: box.encryptedData,
      keyDecryptionNonce: box.nonce,
    };
    const { srpUserID, srpSalt, srpVerifier } = await crypto.generateSrpSetupAttributes(kek.key);
    const { handle, srpA } = await crypto.srpClientStart({ srpUserID, srpSalt, kek: kek.key });
    const { setupID, srpB } = await postJSON(
      '/users/srp/setup',
      { srpUserID, srpSalt, srpVerifier, srpA },
      srpSetupResponseSchema,
      { auth: true },
    );
    const srpM1 = await crypto.srpClientProof(handle, srpB);
    const { srpM2 } = await postJSON(
      '/users/srp/update',
      { setupID, srpM1, updatedKeyAttr },
      srpCompleteResponseSchema,
      { auth: true },
    );
    if (!(await crypto.srpClientVerify(handle, srpM2))) throw new AccountsError('serverNotAuthentic');

    const remote = { ...keyAttributes, ...updatedKeyAttr };
    saveKeyAttributes(await crypto.makeInteractiveKeyAttributes(password, masterKey, remote));
  } catch (e) {
    throw toAccountsError(e, 'srpSetup');
  }
  // The password has changed; a failure from here on is only logged. Stale SRP attributes make the
  // next session validity check reload the key attributes from the server, which repairs them.
  try {
    const { attributes } = await getJSON('/users/srp/attributes', srpAttributesResponseSchema, { params: { email } });
    saveSrpAttributes(attributes);
  } catch (e) {
    log.warn('Could not refresh the SRP attributes after a password change', e);
  }
}
