// For tests only: a user signed in and unlocked in this tab as the library expects it (the user record and
// token, this tab's masterKey, key attributes with a real key pair), and the clean-up after each test.
import { saveMasterKeyOfThisTab } from '@ente/accounts/services/storage.ts';
import type { CryptoRemote } from '@ente/crypto/client.ts';
import { generateKeyPairB64 } from '@ente/crypto/keys.ts';
import { setAppName } from '@ente/shared/app-name.ts';
import { saveKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { resetInMemoryState } from '@ente/shared/storage/in-memory.ts';
import { deleteIndexedDatabase } from '@ente/shared/storage/indexed-db.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';

import { photosLibraryDB } from '../../storage.ts';
import { libraryCache } from '../library-cache.ts';
import { fakeEmail, fakeToken, fakeUserID } from './fake-photos-server.ts';

/** Signs the fake user in; answers their masterKey and public key (b64). */
export async function signIn(crypto: CryptoRemote): Promise<{ masterKey: string; publicKey: string }> {
  setAppName('photos');
  await saveUser({ id: fakeUserID, email: fakeEmail, token: fakeToken });
  const masterKey = await crypto.generateKey();
  await saveMasterKeyOfThisTab(masterKey);
  const pair = await generateKeyPairB64();
  const secret = await crypto.encryptBox(pair.secretKey, masterKey);
  saveKeyAttributes({
    kekSalt: 'c2FsdA==',
    opsLimit: 2,
    memLimit: 67_108_864,
    encryptedKey: 'a2V5',
    keyDecryptionNonce: 'bm9uY2U=',
    publicKey: pair.publicKey,
    encryptedSecretKey: secret.encryptedData,
    secretKeyDecryptionNonce: secret.nonce,
  });
  return { masterKey, publicKey: pair.publicKey };
}

/** Closes every library (as logout does) and empties the browser's storage. */
export async function signOut(): Promise<void> {
  await resetInMemoryState();
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
  await libraryCache.close();
  await deleteIndexedDatabase(photosLibraryDB.database);
}
