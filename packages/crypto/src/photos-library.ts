// The photos library's cryptography (docs/protocol.md#photos), in batches so that a whole diff page is one
// worker call: collections opened with the user's keys, files opened with their collection's key, and the
// few boxes the library's writes need. A batch never fails for one item: an item that does not open is
// `null` (a corrupt row, a key of another device's bug) and the rest are opened.
//
// - A collection's key is a Box under the masterKey (the owner's, with `keyDecryptionNonce`), or a sealed box
//   to the user's public key (a sharee's). Its name is a Box of UTF-8 under the collection key; its magic
//   metadata are Blobs of JSON under the collection key.
// - A file's key is a Box under its collection's key; its metadata is a Blob of JSON under the file key, and
//   so are its magic metadata (`{data, header}`).
import { eachOrNull } from './batch.ts';
import { decryptBlobBytes } from './blob.ts';
import { decryptBoxBytes, encryptBoxB64 } from './box.ts';
import { bytesOf, toB64, utf8Bytes, utf8String } from './encoding.ts';
import {
  checkedKey,
  openFile,
  openMagic,
  withMagic,
  type LockedFile,
  type LockedMagicMetadata,
  type OpenedFile,
  type Openers,
} from './file-open.ts';
import { deriveInteractiveKeyB64, type Argon2RunObserver } from './kdf.ts';
import { generateKeyB64 } from './keys.ts';
import { openSealedBoxBytes, sealBoxB64 } from './sealed-box.ts';
import { sodiumReady } from './sodium.ts';

export type { LockedFile, LockedMagicMetadata, OpenedFile } from './file-open.ts';

/** libsodium's openers: the crypto worker has it loaded anyway. */
const sodiumOpeners: Openers = { box: decryptBoxBytes, blob: decryptBlobBytes };

/** What opening the collections needs of the user: the masterKey and the key pair from the key attributes. */
export type LibraryUserKeys = {
  masterKey: string;
  publicKey: string;
  encryptedSecretKey: string;
  secretKeyDecryptionNonce: string;
};

/** A collection's encrypted fields, as `GET /collections/v2` answers them. */
export type LockedCollection = {
  encryptedKey: string;
  /** The owner's Box nonce; absent or empty for a sharee, whose key is a sealed box. */
  keyDecryptionNonce?: string | undefined;
  encryptedName: string;
  nameDecryptionNonce: string;
  /** A name in plain text, from clients that wrote it so (used when there is no `encryptedName`). */
  name?: string | undefined;
  magicMetadata?: LockedMagicMetadata | undefined;
  pubMagicMetadata?: LockedMagicMetadata | undefined;
  sharedMagicMetadata?: LockedMagicMetadata | undefined;
};

/** A collection opened: its key (b64), its name, and its magic metadata as parsed JSON (`null`: did not open). */
export type OpenedCollection = {
  key: string;
  /**
   * How its key opened: a Box under the masterKey (only the owner can have written it) or a sealed box to the
   * user's public key (anyone, the server included, can write one). Whether the user owns it is decided from
   * this, never from the row's owner id alone.
   */
  keyOpenedWith: 'masterKey' | 'sealedBox';
  /** Decrypted; a plaintext (legacy) name only when the key was sealed, else '' for a row without a boxed name. */
  name: string;
  magicMetadata?: unknown;
  pubMagicMetadata?: unknown;
  sharedMagicMetadata?: unknown;
};

/** A new collection: its key (b64) and the four fields of `POST /collections` that carry it and its name. */
export type NewCollectionKeys = {
  key: string;
  encryptedKey: string;
  keyDecryptionNonce: string;
  encryptedName: string;
  nameDecryptionNonce: string;
};

/** A public link's password as the server keeps it: Argon2id(password, salt `nonce`, limits), all b64. */
export type LinkPasswordHash = { passHash: string; nonce: string; opsLimit: number; memLimit: number };

export interface PhotosLibraryCrypto {
  /** Each collection's key, name and magic metadata; `null` for one whose key or name does not open. */
  openCollections(
    collections: readonly LockedCollection[],
    keys: LibraryUserKeys,
  ): Promise<(OpenedCollection | null)[]>;
  /** Each file's key and metadata under one collection's key; `null` for one whose key or metadata does not open. */
  openFiles(files: readonly LockedFile[], collectionKey: string): Promise<(OpenedFile | null)[]>;
  /** Each file key boxed under a collection's key (add, move, restore). */
  boxFileKeys(
    files: readonly { id: number; key: string }[],
    collectionKey: string,
  ): Promise<{ id: number; encryptedKey: string; keyDecryptionNonce: string }[]>;
  /** A fresh collection key boxed under the masterKey, and `name` boxed under it. */
  newCollectionKeys(name: string, masterKey: string): Promise<NewCollectionKeys>;
  /** A name boxed under a collection's key (rename). */
  encryptCollectionName(
    name: string,
    collectionKey: string,
  ): Promise<{ encryptedName: string; nameDecryptionNonce: string }>;
  /** A collection's key sealed to a sharee's public key (share). */
  sealCollectionKey(collectionKey: string, publicKey: string): Promise<string>;
  /** A public link's password hashed with Argon2id at the interactive limits and a fresh salt. */
  hashLinkPassword(password: string): Promise<LinkPasswordHash>;
}

async function openCollection(
  collection: LockedCollection,
  masterKey: Uint8Array,
  keyPair: () => Promise<{ publicKey: Uint8Array; secretKey: Uint8Array }>,
): Promise<OpenedCollection> {
  const nonce = collection.keyDecryptionNonce;
  const boxed = nonce !== undefined && nonce !== '';
  const keyOpenedWith = boxed ? 'masterKey' : 'sealedBox';
  const key = checkedKey(
    boxed
      ? await decryptBoxBytes({ encryptedData: collection.encryptedKey, nonce }, masterKey)
      : await (async () => {
          const { publicKey, secretKey } = await keyPair();
          return openSealedBoxBytes(collection.encryptedKey, publicKey, secretKey);
        })(),
  );
  // A plaintext name (legacy) is taken only for a collection shared with the user: our clients always box the
  // names of the user's own, so a plaintext one there is the server's text, never shown (the album stays, unnamed).
  const name =
    collection.encryptedName === ''
      ? boxed
        ? ''
        : (collection.name ?? '')
      : utf8String(
          await decryptBoxBytes(
            { encryptedData: collection.encryptedName, nonce: collection.nameDecryptionNonce },
            key,
          ),
        );
  return withMagic({ key: toB64(key), keyOpenedWith, name } satisfies OpenedCollection, {
    magicMetadata: await openMagic(sodiumOpeners, collection.magicMetadata, key),
    pubMagicMetadata: await openMagic(sodiumOpeners, collection.pubMagicMetadata, key),
    sharedMagicMetadata: await openMagic(sodiumOpeners, collection.sharedMagicMetadata, key),
  });
}

/** The implementation, reporting the link password's Argon2id run to `onRun` (see endpoint.ts). */
export function createPhotosLibraryCrypto(onRun?: Argon2RunObserver): PhotosLibraryCrypto {
  return {
    async openCollections(collections, keys) {
      await sodiumReady();
      const masterKey = bytesOf(keys.masterKey);
      // The secret key is opened once per batch, and only when a sharee's collection needs it.
      let pair: Promise<{ publicKey: Uint8Array; secretKey: Uint8Array }> | undefined;
      const keyPair = () =>
        (pair ??= decryptBoxBytes(
          { encryptedData: keys.encryptedSecretKey, nonce: keys.secretKeyDecryptionNonce },
          masterKey,
        ).then((secretKey) => ({ publicKey: bytesOf(keys.publicKey), secretKey })));
      return eachOrNull(collections, (collection) => openCollection(collection, masterKey, keyPair));
    },

    async openFiles(files, collectionKey) {
      await sodiumReady();
      const key = bytesOf(collectionKey);
      return eachOrNull(files, (file) => openFile(sodiumOpeners, file, key));
    },

    async boxFileKeys(files, collectionKey) {
      await sodiumReady();
      const key = bytesOf(collectionKey);
      const boxed: { id: number; encryptedKey: string; keyDecryptionNonce: string }[] = [];
      for (const file of files) {
        const box = await encryptBoxB64(file.key, key);
        boxed.push({ id: file.id, encryptedKey: box.encryptedData, keyDecryptionNonce: box.nonce });
      }
      return boxed;
    },

    async newCollectionKeys(name, masterKey) {
      const key = await generateKeyB64();
      const boxedKey = await encryptBoxB64(key, masterKey);
      const boxedName = await encryptBoxB64(utf8Bytes(name), key);
      return {
        key,
        encryptedKey: boxedKey.encryptedData,
        keyDecryptionNonce: boxedKey.nonce,
        encryptedName: boxedName.encryptedData,
        nameDecryptionNonce: boxedName.nonce,
      };
    },

    async encryptCollectionName(name, collectionKey) {
      const box = await encryptBoxB64(utf8Bytes(name), collectionKey);
      return { encryptedName: box.encryptedData, nameDecryptionNonce: box.nonce };
    },

    sealCollectionKey: (collectionKey, publicKey) => sealBoxB64(collectionKey, publicKey),

    async hashLinkPassword(password) {
      const derived = await deriveInteractiveKeyB64(password, onRun);
      return { passHash: derived.key, nonce: derived.salt, opsLimit: derived.opsLimit, memLimit: derived.memLimit };
    },
  };
}
