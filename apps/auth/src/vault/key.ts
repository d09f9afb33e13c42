// The authenticator key: read from the server and opened with the masterKey, or made on the first use.
// `GET /authenticator/key`; on 404 a key is made in the crypto worker, wrapped in a Box under the
// masterKey (header = the nonce) and posted; a 409 (another client was quicker) reads theirs instead.
import type { CryptoRemote } from '@ente/crypto/client.ts';
import { DecryptionError } from '@ente/crypto/errors.ts';
import { httpStatusOf } from '@ente/shared/failure.ts';
import type { CachedKey } from '@ente/shared/sync/entity-cache.ts';

import { getAuthenticatorKey, postAuthenticatorKey, type RemoteOptions } from '../services/remote.ts';
import { VaultError } from './errors.ts';

/** The open key, and the wrapped form the cache keeps. */
export interface OpenedKey {
  authKey: string;
  wrapped: CachedKey;
}

/** The account's authenticator key, made (and posted) when the account has none yet. */
export async function fetchOrCreateKey(
  crypto: CryptoRemote,
  masterKey: string,
  options: RemoteOptions,
): Promise<OpenedKey> {
  let wrapped = await getAuthenticatorKey(options);
  if (!wrapped) {
    const authKey = await crypto.generateKey();
    const box = await crypto.encryptBox(authKey, masterKey);
    const key: CachedKey = { encryptedKey: box.encryptedData, header: box.nonce };
    try {
      await postAuthenticatorKey(key, options);
      return { authKey, wrapped: key };
    } catch (e) {
      // Another client made the key meanwhile: use theirs.
      if (httpStatusOf(e) !== 409) throw e;
      wrapped = await getAuthenticatorKey(options);
      if (!wrapped) throw new VaultError('vault.keyMissing', { cause: e });
    }
  }
  const key: CachedKey = { encryptedKey: wrapped.encryptedKey, header: wrapped.header };
  try {
    return { authKey: await crypto.decryptBox(key.encryptedKey, key.header, masterKey), wrapped: key };
  } catch (e) {
    if (e instanceof DecryptionError) throw new VaultError('vault.keyMissing', { cause: e });
    throw e;
  }
}
