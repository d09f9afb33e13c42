/**
 * @jest-environment node
 */
// From the server's rows and what the worker opened to the decrypted model; and the shared link's address.
import type { Collection, PhotoFile } from '@ente/protocol/photos.ts';

import { base58, isShareableURL, shareableLink } from './link-url.ts';
import { albumOf, galleryFileOf, metadataOf } from './model.ts';

const user = (id: number, role: string) => ({ id, email: `u${String(id)}@example.org`, name: '', role });
const row: Collection = {
  id: 5,
  owner: user(8, 'OWNER'),
  encryptedKey: 'k',
  name: '',
  encryptedName: 'n',
  nameDecryptionNonce: 'nn',
  type: 'album',
  attributes: { version: 0 },
  sharees: [user(7, 'COLLABORATOR'), user(9, 'VIEWER')],
  publicURLs: null,
  updationTime: 40,
  app: 'photos',
};

test('an album: the user’s role is OWNER for their own, else their sharee role', () => {
  const opened = { key: 'a2V5', keyOpenedWith: 'masterKey', name: 'Garden' } as const;
  const asSharee = { ...opened, keyOpenedWith: 'sealedBox' } as const;
  expect(albumOf(row, asSharee, 7)).toEqual({
    id: 5,
    name: 'Garden',
    type: 'album',
    owner: { id: 8, email: 'u8@example.org', role: 'OWNER' },
    role: 'COLLABORATOR',
    key: 'a2V5',
    sharees: [
      { id: 7, email: 'u7@example.org', role: 'COLLABORATOR' },
      { id: 9, email: 'u9@example.org', role: 'VIEWER' },
    ],
    updationTime: 40,
  });
  expect(albumOf(row, opened, 8)?.role).toBe('OWNER');
  // Archived by its owner (their magic metadata), hidden by a sharee for themselves (shared magic metadata).
  const marked = { ...opened, magicMetadata: { visibility: 1 }, sharedMagicMetadata: { visibility: 2 } };
  expect(albumOf(row, marked, 8)?.visibility).toBe('archived');
  expect(albumOf(row, { ...marked, keyOpenedWith: 'sealedBox' }, 7)?.visibility).toBe('hidden');
  expect(albumOf(row, { ...opened, magicMetadata: { visibility: 0 } }, 8)).not.toHaveProperty('visibility');
  expect(albumOf({ ...row, type: 'CollectionType.unknown' }, opened, 8)).toBeNull();
});

test('a row naming the user as owner counts as theirs only when its key opened under their masterKey', () => {
  // A server can seal a key of its choosing to the user's public key and name the user as the owner: were
  // it taken for the user's own album, the user's file keys would be boxed under a key the server knows.
  const sealedToSelf = { key: 'a2V5', keyOpenedWith: 'sealedBox', name: 'Uncategorized' } as const;
  expect(albumOf({ ...row, type: 'uncategorized' }, sealedToSelf, 8)).toBeNull();
  // Another's collection whose key claims to be under the user's masterKey is not theirs to read either.
  expect(albumOf(row, { ...sealedToSelf, keyOpenedWith: 'masterKey' }, 7)).toBeNull();
  expect(albumOf(row, { ...sealedToSelf, keyOpenedWith: 'masterKey' }, 8)?.role).toBe('OWNER');
  // Nor does another's row make the user its owner by listing them as a sharee with the role OWNER.
  const listedAsOwner = { ...row, type: 'uncategorized', sharees: [user(7, 'OWNER')] };
  const forged = albumOf(listedAsOwner, sealedToSelf, 7);
  expect(forged?.role).toBe('VIEWER');
  expect(forged?.sharees).toEqual([{ id: 7, email: 'u7@example.org', role: 'VIEWER' }]);
});

test('an album’s live link, as its owner sees it', () => {
  const link = {
    url: 'https://photos.example/shared-albums?t=ABCDEFGHJK',
    deviceLimit: 5,
    validTill: 0,
    enableDownload: false,
    enableCollect: true,
    enableComment: false,
    enableJoin: false,
    passwordEnabled: true,
    nonce: 'bm9uY2U=',
    opsLimit: 2,
    memLimit: 67_108_864,
  };
  expect(
    albumOf({ ...row, publicURLs: [link] }, { key: 'a2V5', keyOpenedWith: 'masterKey', name: 'G' }, 8)?.link,
  ).toEqual({
    url: link.url,
    passwordEnabled: true,
    enableDownload: false,
    enableCollect: true,
    validTill: 0,
    deviceLimit: 5,
  });
});

test('metadata: what the gallery needs, or null', () => {
  const base = { title: 'a.jpg', creationTime: 10, modificationTime: 9, fileType: 2, hash: 'aGFzaA==' };
  expect(metadataOf(base)).toEqual(base);
  expect(metadataOf({ ...base, latitude: 1.5, longitude: -2, imageHash: 'i', videoHash: 'v', extra: 1 })).toEqual({
    ...base,
    latitude: 1.5,
    longitude: -2,
    imageHash: 'i',
    videoHash: 'v',
  });
  // Without a modification time, the creation time stands in.
  expect(metadataOf({ title: 'b', creationTime: 3, fileType: 0 })).toEqual({
    title: 'b',
    creationTime: 3,
    modificationTime: 3,
    fileType: 0,
  });
  for (const bad of [null, 'text', { ...base, title: 1 }, { ...base, creationTime: 'x' }, { ...base, fileType: 3 }]) {
    expect(metadataOf(bad)).toBeNull();
  }
});

test('a file: its key, headers, sizes, and the public magic metadata’s size, caption and edited time', () => {
  const header = (n: number) => String(n).repeat(32);
  const file: PhotoFile = {
    id: 21,
    ownerID: 7,
    collectionID: 5,
    collectionOwnerID: 8,
    encryptedKey: 'k',
    keyDecryptionNonce: 'n',
    file: { decryptionHeader: header(1), size: 100 },
    thumbnail: { decryptionHeader: header(2), size: 10 },
    metadata: { encryptedData: 'm', decryptionHeader: header(3), size: 0 },
    isDeleted: false,
    updationTime: 50,
    info: { fileSize: 100, thumbSize: 10 },
  };
  const metadata = { title: 'a.jpg', creationTime: 10, modificationTime: 9, fileType: 0 };
  const pubMagicMetadata = { w: 4032, h: 3024, caption: 'Hi', editedTime: 99, editedName: 'b.jpg' };
  expect(galleryFileOf(file, { key: 'ZmlsZQ==', metadata, pubMagicMetadata })).toEqual({
    id: 21,
    ownerID: 7,
    collectionIDs: [5],
    key: 'ZmlsZQ==',
    fileHeader: header(1),
    thumbnailHeader: header(2),
    metadata,
    fileSize: 100,
    thumbnailSize: 10,
    width: 4032,
    height: 3024,
    caption: 'Hi',
    editedTime: 99,
    updationTime: 50,
  });
  expect(galleryFileOf(file, { key: 'ZmlsZQ==', metadata, magicMetadata: { visibility: 2 } })?.visibility).toBe(
    'hidden',
  );
  // Magic metadata that did not open (null) adds nothing; unusable metadata drops the file.
  expect(galleryFileOf(file, { key: 'ZmlsZQ==', metadata, pubMagicMetadata: null })?.width).toBeUndefined();
  expect(galleryFileOf(file, { key: 'ZmlsZQ==', metadata: { title: 'x' } })).toBeNull();
});

test('base58 (Bitcoin’s alphabet) and the shared address with the key in its fragment', () => {
  expect(base58(new TextEncoder().encode('hello world'))).toBe('StV1DL6CwTryKyV');
  expect(base58(Uint8Array.of(0, 0, 1))).toBe('112');
  expect(base58(new Uint8Array())).toBe('');
  const key = Buffer.from(Uint8Array.from({ length: 32 }, (_, i) => i)).toString('base64');
  expect(shareableLink('https://photos.example/shared-albums?t=AB#old', key)).toBe(
    `https://photos.example/shared-albums?t=AB#${base58(Uint8Array.from({ length: 32 }, (_, i) => i))}`,
  );
});

test('a link URL is shared only over https (http only on this machine): any other gets no address', () => {
  const key = Buffer.from(Uint8Array.from({ length: 32 }, (_, i) => i)).toString('base64');
  for (const url of [
    'https://albums.example/?t=AB',
    'http://localhost:3002/?t=AB',
    'http://127.0.0.1:3002/?t=AB',
    'http://[::1]/?t=AB',
  ]) {
    expect(isShareableURL(url)).toBe(true);
    expect(shareableLink(url, key)).toMatch(/#[1-9A-HJ-NP-Za-km-z]+$/);
  }
  for (const url of [
    'http://albums.example/?t=AB',
    'http://localhost.evil.example/?t=AB',
    'javascript:alert(1)//',
    'data:text/html,<script>',
    'ftp://albums.example/',
    'https://user:pass@albums.example/',
    '/shared-albums?t=AB',
    '',
  ]) {
    expect(isShareableURL(url)).toBe(false);
    expect(shareableLink(url, key)).toBeUndefined();
  }
});
