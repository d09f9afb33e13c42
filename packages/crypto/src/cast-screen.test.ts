// The cast screen's crypto (cast-screen.ts) through the API: the key pair's handle, the sealed payload, file bytes.
import { expect, test } from '@jest/globals';

import { createCryptoAPI, cryptoAPI } from './api.ts';
import { encryptBlobB64 } from './blob.ts';
import { fromB64, utf8Bytes } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import { generateKeyB64, generateKeyPairB64 } from './keys.ts';
import { sealBoxB64 } from './sealed-box.ts';
import { encryptStreamBytes } from './stream.ts';

test('a payload sealed to the cast key pair opens by its handle, and no more once the pair is dropped', async () => {
  const { handle, publicKey } = await cryptoAPI.castKeyPair();
  expect(fromB64(publicKey)).toHaveLength(32);
  const payload = JSON.stringify({ castToken: 'cast_abcdefghijklmnopqrstuv', collectionID: 7, collectionKey: 'x' });
  const sealed = await sealBoxB64(utf8Bytes(payload), publicKey);
  await expect(cryptoAPI.openCastPayload(handle, sealed)).resolves.toBe(payload);
  // The worker's endpoint builds the API for each call: the handle holds across instances.
  await expect(createCryptoAPI().openCastPayload(handle, sealed)).resolves.toBe(payload);

  const other = await cryptoAPI.castKeyPair();
  expect(other.handle).not.toBe(handle);
  await expect(cryptoAPI.openCastPayload(other.handle, sealed)).rejects.toBeInstanceOf(DecryptionError);

  // A pair given whole (as WebCrypto's X25519 makes it in the page) opens the same way.
  const given = await generateKeyPairB64();
  const sealedToGiven = await sealBoxB64(utf8Bytes(payload), given.publicKey);
  await expect(cryptoAPI.openCastPayload(given, sealedToGiven)).resolves.toBe(payload);
  await expect(cryptoAPI.openCastPayload(given, sealed)).rejects.toBeInstanceOf(DecryptionError);

  await cryptoAPI.dropCastKeyPair(handle);
  await expect(cryptoAPI.openCastPayload(handle, sealed)).rejects.toBeInstanceOf(DecryptionError);
});

test("a file's bytes open as a thumbnail's Blob or an original's Stream, and not under another key", async () => {
  const key = await generateKeyB64();
  const plain = Uint8Array.from({ length: 5000 }, (_, i) => i % 251);
  const blob = await encryptBlobB64(plain, key);
  await expect(cryptoAPI.decryptFileBytes(fromB64(blob.encryptedData), blob.header, key, 'blob')).resolves.toEqual(
    plain,
  );
  const stream = await encryptStreamBytes(plain, key);
  await expect(cryptoAPI.decryptFileBytes(stream.encrypted, stream.header, key, 'stream')).resolves.toEqual(plain);
  await expect(
    cryptoAPI.decryptFileBytes(stream.encrypted, stream.header, await generateKeyB64(), 'stream'),
  ).rejects.toBeInstanceOf(DecryptionError);
});
