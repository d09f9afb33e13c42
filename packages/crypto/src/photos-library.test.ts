// The photos library's batches (photos-library.ts) against rows built here with libsodium itself, as another
// client writes them (docs/protocol.md#photos): owner's and sharee's collections, files with their metadata
// and magic metadata, and items that do not open (a wrong key, a corrupt Blob), which answer null alone.
import { beforeAll, expect, test } from '@jest/globals';
import sodium from 'libsodium-wrappers-sumo';

import { cryptoAPI } from './api.ts';
import { cryptoWorker } from './client.ts';
import type { LockedCollection, LockedFile } from './photos-library.ts';

const b64 = (bytes: Uint8Array) => sodium.to_base64(bytes, sodium.base64_variants.ORIGINAL);
const bytes = (text: string) => sodium.from_base64(text, sodium.base64_variants.ORIGINAL);
const filled = (length: number, value: number) => new Uint8Array(length).fill(value);

let masterKey: Uint8Array;
let keyPair: { publicKey: Uint8Array; privateKey: Uint8Array };
let userKeys: { masterKey: string; publicKey: string; encryptedSecretKey: string; secretKeyDecryptionNonce: string };

beforeAll(async () => {
  await sodium.ready;
  masterKey = filled(32, 1);
  keyPair = sodium.crypto_box_seed_keypair(filled(32, 2));
  const secretNonce = filled(24, 3);
  userKeys = {
    masterKey: b64(masterKey),
    publicKey: b64(keyPair.publicKey),
    encryptedSecretKey: b64(sodium.crypto_secretbox_easy(keyPair.privateKey, secretNonce, masterKey)),
    secretKeyDecryptionNonce: b64(secretNonce),
  };
});

function box(message: Uint8Array, key: Uint8Array, nonceByte: number) {
  const nonce = filled(24, nonceByte);
  return { encryptedData: b64(sodium.crypto_secretbox_easy(message, nonce, key)), nonce: b64(nonce) };
}

/** One FINAL secretstream message of `value`'s JSON (or of raw text). */
function jsonBlob(value: unknown, key: Uint8Array, raw?: string) {
  const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
  const message = sodium.from_string(raw ?? JSON.stringify(value));
  const tag = sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL;
  return {
    encryptedData: b64(sodium.crypto_secretstream_xchacha20poly1305_push(state, message, null, tag)),
    header: b64(header),
  };
}

const magic = (value: unknown, key: Uint8Array) => {
  const blob = jsonBlob(value, key);
  return { data: blob.encryptedData, header: blob.header };
};

function ownedCollection(key: Uint8Array, name: string, under = masterKey): LockedCollection {
  const boxedKey = box(key, under, 4);
  const boxedName = box(sodium.from_string(name), key, 5);
  return {
    encryptedKey: boxedKey.encryptedData,
    keyDecryptionNonce: boxedKey.nonce,
    encryptedName: boxedName.encryptedData,
    nameDecryptionNonce: boxedName.nonce,
  };
}

test('collections: the owner’s (Box under the masterKey) and a sharee’s (sealed box), names and magic metadata', async () => {
  const ownKey = filled(32, 10);
  const sharedKey = filled(32, 11);
  const shared = ownedCollection(sharedKey, 'Их отпуск 🌴');
  const sharedCollection: LockedCollection = {
    ...shared,
    encryptedKey: b64(sodium.crypto_box_seal(sharedKey, keyPair.publicKey)),
    keyDecryptionNonce: '',
    sharedMagicMetadata: magic({ visibility: 2 }, sharedKey),
  };
  const own = { ...ownedCollection(ownKey, 'Holidays'), pubMagicMetadata: magic({ coverID: 7 }, ownKey) };
  const opened = await cryptoAPI.openCollections([own, sharedCollection], userKeys);
  expect(opened).toEqual([
    { key: b64(ownKey), keyOpenedWith: 'masterKey', name: 'Holidays', pubMagicMetadata: { coverID: 7 } },
    {
      key: b64(sharedKey),
      keyOpenedWith: 'sealedBox',
      name: 'Их отпуск 🌴',
      sharedMagicMetadata: { visibility: 2 },
    },
  ]);
});

test('collections: one under another key, or with a name that does not open, is null; the rest open', async () => {
  const key = filled(32, 12);
  const wrongKey = ownedCollection(key, 'Not mine', filled(32, 99));
  const badName = { ...ownedCollection(key, 'Renamed'), nameDecryptionNonce: b64(filled(24, 77)) };
  const sealedToAnother = {
    ...ownedCollection(key, 'Sealed'),
    encryptedKey: b64(sodium.crypto_box_seal(key, sodium.crypto_box_seed_keypair(filled(32, 9)).publicKey)),
    keyDecryptionNonce: undefined,
  };
  const badMagic = {
    ...ownedCollection(key, 'Good'),
    magicMetadata: { data: b64(filled(40, 1)), header: b64(filled(24, 1)) },
  };
  const opened = await cryptoAPI.openCollections([wrongKey, badName, sealedToAnother, badMagic], userKeys);
  // Magic metadata that do not open leave the collection usable, with that field null.
  expect(opened).toEqual([
    null,
    null,
    null,
    { key: b64(key), keyOpenedWith: 'masterKey', name: 'Good', magicMetadata: null },
  ]);
});

test('collections: a "key" that is not 32 bytes (sealed by anyone, its name in plain text) is null', async () => {
  const short = {
    encryptedKey: b64(sodium.crypto_box_seal(filled(16, 14), keyPair.publicKey)),
    keyDecryptionNonce: '',
    encryptedName: '',
    nameDecryptionNonce: '',
    name: 'Looks fine',
  };
  const long = {
    ...ownedCollection(filled(32, 15), 'x'),
    encryptedKey: box(filled(33, 15), masterKey, 4).encryptedData,
  };
  const opened = await cryptoAPI.openCollections([short, { ...long, encryptedName: '', name: 'Mine?' }], userKeys);
  expect(opened).toEqual([null, null]);
});

test('collections: a plaintext name is shown for a collection shared with the user, never for their own', async () => {
  const ownKey = filled(32, 16);
  const sharedKey = filled(32, 17);
  const plain = { encryptedName: '', nameDecryptionNonce: '' };
  const own = { ...ownedCollection(ownKey, 'x'), ...plain, name: 'Verify your account at evil.example' };
  const shared = {
    encryptedKey: b64(sodium.crypto_box_seal(sharedKey, keyPair.publicKey)),
    keyDecryptionNonce: '',
    ...plain,
    name: 'Old shared album',
  };
  const opened = await cryptoAPI.openCollections([own, shared], userKeys);
  expect(opened).toEqual([
    { key: b64(ownKey), keyOpenedWith: 'masterKey', name: '' },
    { key: b64(sharedKey), keyOpenedWith: 'sealedBox', name: 'Old shared album' },
  ]);
});

test('collections: a wrong masterKey opens none', async () => {
  const key = filled(32, 13);
  const opened = await cryptoAPI.openCollections([ownedCollection(key, 'Holidays')], {
    ...userKeys,
    masterKey: b64(filled(32, 98)),
  });
  expect(opened).toEqual([null]);
});

function lockedFile(fileKey: Uint8Array, collectionKey: Uint8Array, metadata: unknown): LockedFile {
  const boxedKey = box(fileKey, collectionKey, 6);
  const blob = jsonBlob(metadata, fileKey);
  return {
    encryptedKey: boxedKey.encryptedData,
    keyDecryptionNonce: boxedKey.nonce,
    metadata: { encryptedData: blob.encryptedData, decryptionHeader: blob.header },
  };
}

test('files: key under the collection key, metadata and magic metadata as JSON under the file key', async () => {
  const collectionKey = filled(32, 20);
  const fileKey = filled(32, 21);
  const metadata = { title: 'IMG_0001.jpg', creationTime: 1_700_000_000_000_000, modificationTime: 1, fileType: 0 };
  const file = {
    ...lockedFile(fileKey, collectionKey, metadata),
    pubMagicMetadata: magic({ w: 4032, h: 3024, editedTime: 5 }, fileKey),
    magicMetadata: magic({ visibility: 0 }, fileKey),
  };
  const api = await cryptoWorker();
  expect(await api.openFiles([file], b64(collectionKey))).toEqual([
    {
      key: b64(fileKey),
      metadata,
      pubMagicMetadata: { w: 4032, h: 3024, editedTime: 5 },
      magicMetadata: { visibility: 0 },
    },
  ]);
});

test('files: a wrong collection key, metadata that is not JSON or does not open, each null alone', async () => {
  const collectionKey = filled(32, 22);
  const good = lockedFile(filled(32, 23), collectionKey, { title: 'a' });
  const wrongKey = lockedFile(filled(32, 24), filled(32, 97), { title: 'b' });
  const notJSON = {
    ...good,
    metadata: { ...good.metadata, ...renamed(jsonBlob(undefined, filled(32, 23), '{not json')) },
  };
  const cut = {
    ...good,
    metadata: {
      encryptedData: good.metadata.encryptedData?.slice(0, 8),
      decryptionHeader: good.metadata.decryptionHeader,
    },
  };
  const opened = await cryptoAPI.openFiles([wrongKey, notJSON, cut, good], b64(collectionKey));
  expect(opened).toEqual([null, null, null, { key: b64(filled(32, 23)), metadata: { title: 'a' } }]);
  // The whole batch under a wrong key: all null, no throw.
  expect(await cryptoAPI.openFiles([good, good], b64(filled(32, 96)))).toEqual([null, null]);
});

const renamed = (blob: { encryptedData: string; header: string }) => ({
  encryptedData: blob.encryptedData,
  decryptionHeader: blob.header,
});

test('the writes: file keys boxed for another collection, a new collection, a rename, a key sealed to a sharee', async () => {
  const target = filled(32, 30);
  const fileKey = filled(32, 31);
  const [boxed] = await cryptoAPI.boxFileKeys([{ id: 5, key: b64(fileKey) }], b64(target));
  expect(boxed?.id).toBe(5);
  expect(
    sodium.crypto_secretbox_open_easy(bytes(boxed!.encryptedKey), bytes(boxed!.keyDecryptionNonce), target),
  ).toEqual(fileKey);

  const created = await cryptoAPI.newCollectionKeys('Été', b64(masterKey));
  const key = sodium.crypto_secretbox_open_easy(
    bytes(created.encryptedKey),
    bytes(created.keyDecryptionNonce),
    masterKey,
  );
  expect(b64(key)).toBe(created.key);
  const name = sodium.crypto_secretbox_open_easy(bytes(created.encryptedName), bytes(created.nameDecryptionNonce), key);
  expect(sodium.to_string(name)).toBe('Été');
  // What another client reads back.
  expect(await cryptoAPI.openCollections([created], userKeys)).toEqual([
    { key: created.key, keyOpenedWith: 'masterKey', name: 'Été' },
  ]);

  const rename = await cryptoAPI.encryptCollectionName('Winter', created.key);
  const renamedName = sodium.crypto_secretbox_open_easy(
    bytes(rename.encryptedName),
    bytes(rename.nameDecryptionNonce),
    key,
  );
  expect(sodium.to_string(renamedName)).toBe('Winter');

  const sealed = await cryptoAPI.sealCollectionKey(created.key, userKeys.publicKey);
  expect(b64(sodium.crypto_box_seal_open(bytes(sealed), keyPair.publicKey, keyPair.privateKey))).toBe(created.key);
});

test('a link password: Argon2id at the interactive limits with a fresh 16-byte salt, as a viewer derives it', async () => {
  const hashed = await cryptoAPI.hashLinkPassword('open sesame');
  expect(hashed).toMatchObject({ opsLimit: 2, memLimit: 64 * 1024 * 1024 });
  expect(bytes(hashed.nonce)).toHaveLength(16);
  const expected = sodium.crypto_pwhash(
    32,
    'open sesame',
    bytes(hashed.nonce),
    hashed.opsLimit,
    hashed.memLimit,
    sodium.crypto_pwhash_ALG_ARGON2ID13,
  );
  expect(hashed.passHash).toBe(b64(expected));
  expect((await cryptoAPI.hashLinkPassword('open sesame')).nonce).not.toBe(hashed.nonce);
});
