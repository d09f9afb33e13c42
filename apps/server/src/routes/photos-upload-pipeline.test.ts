// What the photos app's upload produces, against the real server: the upload worker's single pass
// (@ente/crypto's encryptFileForUpload: BLAKE2b-512 of the plaintext, the Stream in 4 MiB chunks, MD5 per
// part of the ciphertext) feeds the upload URLs with its own part MD5s, the store accepts the PUTs under them,
// POST /files confirms the file, and the object downloaded back through the 307 opens, chunk by chunk, to the
// original bytes, with the hash in the metadata equal to Node's BLAKE2b-512 of them. Sizes: an empty file (one
// FINAL chunk), one chunk, parts across chunk boundaries (the server's 5 MiB minimum) and Ente's part size of
// five encrypted chunks. The app's own request building is exercised in apps/photos (pipeline.test.ts).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';

import {
  createChunkDecryptor,
  decryptBlobBytes,
  decryptBoxB64,
  encryptBlobB64,
  encryptBoxB64,
  encryptFileForUpload,
  STREAM_ENCRYPTED_CHUNK_BYTES,
  streamEncryptedSize,
  toB64,
  utf8Bytes,
  utf8String,
  type FileEncryption,
} from '@ente/crypto';
import type { MultipartUploadUrlResponse, PhotoFile, UploadUrlResponse } from '@ente/protocol';

import { md5Of, PhotosClient, type Album } from '../testing/photos-client.ts';
import { suiteServer } from '../testing/server.ts';

const MiB = 1024 * 1024;
const ENTE_PART = 5 * STREAM_ENCRYPTED_CHUNK_BYTES;

function* pieces(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

/** Uploads the ciphertext as the app does: with the MD5s the encryption pass computed, not recomputed here. */
async function uploadCiphertext(owner: PhotosClient, ciphertext: Uint8Array, encryption: FileEncryption) {
  const { partMd5s, partLength } = encryption;
  if (partMd5s.length === 1) {
    const answer = await owner.api.post<UploadUrlResponse>('/files/upload-url', {
      contentLength: ciphertext.length,
      contentMD5: partMd5s[0],
    });
    assert.equal(answer.status, 200, answer.text);
    const put = await fetch(answer.body.url, {
      method: 'PUT',
      body: ciphertext,
      headers: { 'Content-MD5': partMd5s[0] ?? '' },
    });
    assert.equal(put.status, 200, await put.text());
    return answer.body.objectKey;
  }
  const answer = await owner.api.post<MultipartUploadUrlResponse>('/files/multipart-upload-url', {
    contentLength: ciphertext.length,
    partLength,
    partMd5s,
  });
  assert.equal(answer.status, 200, answer.text);
  const etags: string[] = [];
  for (const [index, part] of [...pieces(ciphertext, partLength)].entries()) {
    const put = await fetch(answer.body.partURLs[index] ?? '', {
      method: 'PUT',
      body: part,
      headers: { 'Content-MD5': partMd5s[index] ?? '' },
    });
    assert.equal(put.status, 200, await put.text());
    etags.push(put.headers.get('etag') ?? '');
  }
  const xml = etags.map((etag, i) => `<Part><PartNumber>${String(i + 1)}</PartNumber><ETag>${etag}</ETag></Part>`);
  const done = await fetch(answer.body.completeURL, {
    method: 'POST',
    body: `<CompleteMultipartUpload>${xml.join('')}</CompleteMultipartUpload>`,
    headers: { 'Content-Type': 'text/xml' },
  });
  assert.equal(done.status, 200, await done.text());
  return answer.body.objectKey;
}

async function uploadThroughPipeline(owner: PhotosClient, album: Album, data: Uint8Array, partLength: number) {
  const written: Uint8Array[] = [];
  // The file arrives in pieces that match neither chunks nor parts, as File slices or a stream might.
  const encryption = await encryptFileForUpload(pieces(data, 3 * MiB + 7), {
    partLength,
    write: (bytes) => void written.push(bytes.slice()),
  });
  const ciphertext = Buffer.concat(written);
  assert.equal(ciphertext.length, streamEncryptedSize(data.length));
  assert.deepEqual(encryption.partMd5s, [...pieces(ciphertext, partLength)].map(md5Of));

  const thumbnail = await encryptBlobB64(utf8Bytes('a thumbnail'), encryption.key);
  const metadata = { title: 'IMG.jpg', creationTime: 1, modificationTime: 1, fileType: 0, hash: encryption.hash };
  const sealedMetadata = await encryptBlobB64(utf8Bytes(JSON.stringify(metadata)), encryption.key);
  const boxedKey = await encryptBoxB64(encryption.key, album.key);
  const thumbnailBytes = Buffer.from(thumbnail.encryptedData, 'base64');
  const made = await owner.api.post<PhotoFile>('/files', {
    collectionID: album.id,
    encryptedKey: boxedKey.encryptedData,
    keyDecryptionNonce: boxedKey.nonce,
    file: {
      objectKey: await uploadCiphertext(owner, ciphertext, encryption),
      decryptionHeader: encryption.header,
      size: ciphertext.length,
    },
    thumbnail: {
      objectKey: await owner.uploadObject(thumbnailBytes),
      decryptionHeader: thumbnail.header,
      size: thumbnailBytes.length,
    },
    metadata: { encryptedData: sealedMetadata.encryptedData, decryptionHeader: sealedMetadata.header },
  });
  assert.equal(made.status, 200, made.text);
  return made.body;
}

/** Opens the downloaded object one encrypted chunk at a time, as the media worker does while it downloads. */
async function openDownloaded(bytes: Uint8Array, header: string, key: string) {
  const decryptor = await createChunkDecryptor(header, key);
  const plaintext: Uint8Array[] = [];
  for (const chunk of pieces(bytes, STREAM_ENCRYPTED_CHUNK_BYTES)) plaintext.push(decryptor.pull(chunk).plaintext);
  assert.equal(decryptor.ended, true, 'the last chunk is FINAL');
  return Buffer.concat(plaintext);
}

describe("the photos app's upload pass against the server", () => {
  const { server, api } = suiteServer();

  test('empty, one chunk, parts across chunks and Ente-sized parts: uploaded, confirmed, and downloaded back', async () => {
    const owner = await PhotosClient.signUp(api, server.mail, new URL(server.url).origin);
    const album = await owner.createAlbum('uploads');
    const cases = [
      { data: new Uint8Array(0), partLength: ENTE_PART },
      { data: randomBytes(MiB + 3), partLength: ENTE_PART },
      { data: randomBytes(11 * MiB), partLength: 5 * MiB },
      { data: randomBytes(4 * 5 * MiB + 1), partLength: ENTE_PART },
    ];
    for (const { data, partLength } of cases) {
      const file = await uploadThroughPipeline(owner, album, data, partLength);
      const [entry] = (await owner.albumDiff(album.id)).filter((candidate) => candidate.id === file.id);
      assert.ok(entry, 'the new file is in the album');
      const fileKey = await decryptBoxB64(
        { encryptedData: entry.encryptedKey, nonce: entry.keyDecryptionNonce },
        album.key,
      );
      const object = await owner.fetchObject(file.id, 'download');
      assert.equal(object.length, streamEncryptedSize(data.length));
      const opened = await openDownloaded(object, entry.file.decryptionHeader, fileKey);
      assert.ok(opened.equals(data), `${String(data.length)} bytes come back`);
      const metadata = JSON.parse(
        utf8String(
          await decryptBlobBytes(
            { encryptedData: entry.metadata.encryptedData ?? '', header: entry.metadata.decryptionHeader },
            fileKey,
          ),
        ),
      ) as { hash: string };
      assert.equal(metadata.hash, createHash('blake2b512').update(data).digest('base64'));
      const thumbnail = await owner.fetchObject(file.id, 'preview');
      const thumbnailBlob = { encryptedData: toB64(thumbnail), header: entry.thumbnail.decryptionHeader };
      assert.equal(utf8String(await decryptBlobBytes(thumbnailBlob, fileKey)), 'a thumbnail');
    }
    const parts = cases.map(({ data, partLength }) => Math.ceil(streamEncryptedSize(data.length) / partLength));
    assert.deepEqual(parts, [1, 1, 3, 2], 'single PUTs and multipart uploads were both exercised');
  });
});
