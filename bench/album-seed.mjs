// The photos albums the browser benchmarks seed over HTTP (photos-app.mjs's library, cast.mjs's album): an album
// and its photos made as the photos app's uploader makes them (docs/protocol.md#photos-client-encryption), with
// e2e's API client against the local stack. Runs under `node --import tsx` (the crypto and e2e modules are
// TypeScript).
import { createHash } from 'node:crypto';

import {
  blake2b512B64,
  encryptBlobB64,
  encryptBoxB64,
  encryptStreamBytes,
  fromB64,
  generateKeyB64,
  utf8Bytes,
} from '@ente/crypto';
import { api } from '@ente/e2e/api.ts';

/** A new album of the account's named `name` (its key sealed under the master key, its name under its key). */
export async function createAlbum(account, token, name) {
  const key = await generateKeyB64();
  const sealedKey = await encryptBoxB64(key, account.masterKey);
  const sealedName = await encryptBoxB64(utf8Bytes(name), key);
  const { collection } = await api('photos', 'POST', '/collections', {
    token,
    body: {
      encryptedKey: sealedKey.encryptedData,
      keyDecryptionNonce: sealedKey.nonce,
      encryptedName: sealedName.encryptedData,
      nameDecryptionNonce: sealedName.nonce,
      type: 'album',
    },
  });
  return { id: collection.id, key };
}

/** `bytes` put to the object store through a signed upload URL (the store checks their MD5); the object's key. */
async function putObject(token, bytes) {
  const contentMD5 = createHash('md5').update(bytes).digest('base64');
  const target = await api('photos', 'POST', '/files/upload-url', {
    token,
    body: { contentLength: bytes.length, contentMD5 },
  });
  const answer = await fetch(target.url, { method: 'PUT', body: bytes, headers: { 'Content-MD5': contentMD5 } });
  if (!answer.ok) throw new Error(`PUT ${target.objectKey}: ${String(answer.status)} ${await answer.text()}`);
  return target.objectKey;
}

/**
 * One photo (or video: `fileType` 1) added to `album`: a new file key sealed under the album's; the original in
 * secretstream chunks of 4 MiB, the thumbnail and the metadata (title, times, type, the original's BLAKE2b hash)
 * each one FINAL message under the file key; the original and the thumbnail put to the store.
 */
export async function addPhoto(token, album, { original, thumbnail, title, creationTime, fileType = 0 }) {
  const fileKey = await generateKeyB64();
  const file = await encryptStreamBytes(new Uint8Array(original), fileKey);
  const thumb = await encryptBlobB64(new Uint8Array(thumbnail), fileKey);
  const thumbBytes = fromB64(thumb.encryptedData);
  const metadata = await encryptBlobB64(
    utf8Bytes(
      JSON.stringify({
        title,
        creationTime,
        modificationTime: creationTime,
        fileType,
        hash: await blake2b512B64(new Uint8Array(original)),
      }),
    ),
    fileKey,
  );
  const sealedFileKey = await encryptBoxB64(fileKey, album.key);
  const [fileObject, thumbnailObject] = await Promise.all([
    putObject(token, file.encrypted),
    putObject(token, thumbBytes),
  ]);
  await api('photos', 'POST', '/files', {
    token,
    body: {
      collectionID: album.id,
      encryptedKey: sealedFileKey.encryptedData,
      keyDecryptionNonce: sealedFileKey.nonce,
      file: { objectKey: fileObject, decryptionHeader: file.header, size: file.encrypted.length },
      thumbnail: { objectKey: thumbnailObject, decryptionHeader: thumb.header, size: thumbBytes.length },
      metadata: { encryptedData: metadata.encryptedData, decryptionHeader: metadata.header },
    },
  });
}
