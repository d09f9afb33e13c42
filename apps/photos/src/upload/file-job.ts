// The work of an upload worker on one file at a time: hash it, encrypt it to its staging (memory or OPFS) while
// hashing and MD5-ing per part, make and encrypt its thumbnail, read its EXIF, seal its metadata and key, and
// PUT the ciphertext to the signed URLs the main thread obtained. The file key never leaves this worker except
// boxed with the album's key. `dispose` forgets the file (key, staging, thumbnail) before the worker serves the
// next one (worker-pool.ts). Runs only in a worker (see upload-worker.ts); nothing is logged.
import {
  createBlake2b512Hash,
  createMd5Hash,
  encryptBlobB64,
  encryptBoxB64,
  encryptFileForUpload,
  fromB64,
  hashFileB64,
  md5B64,
  STREAM_CHUNK_BYTES,
  streamEncryptedSize,
  utf8Bytes,
  type FileEncryption,
  type StreamingHash,
} from '@ente/crypto';

import type { FileMetadata } from '../library/types.ts';
import { readExif } from './exif.ts';
import { livePhotoZipEntries } from './live-photos.ts';
import type { ExifFacts } from './metadata.ts';
import { chooseStaging, completeMultipartBody } from './plan.ts';
import { stageClock, type StageClock, type StageTimes } from './stage-times.ts';
import { memoryStaging, opfsAvailable, opfsStaging, type Staging } from './staging.ts';
import { putWithRetries } from './store-put.ts';
import { makeThumbnail, type Thumbnail } from './thumbnail.ts';
import { UploadError } from './types.ts';

/** Where the main thread was told to PUT an object. */
export type PutTarget =
  | { kind: 'single'; url: string; md5: string }
  | { kind: 'multipart'; parts: { url: string; offset: number; length: number; md5: string }[]; completeURL: string };

export interface EncryptedFileFacts {
  /** BLAKE2b-512 of what was encrypted (b64); for a live photo, of its ZIP (not part of its metadata). */
  hash: string;
  /** A live photo's hashes of its image and of its video (its metadata's `imageHash`, `videoHash`). */
  parts?: { imageHash: string; videoHash: string };
  header: string;
  size: number;
  partLength: number;
  partMd5s: string[];
}

export interface SealedFile {
  encryptedKey: string;
  keyDecryptionNonce: string;
  metadata: { encryptedData: string; decryptionHeader: string };
  pubMagicMetadata?: { version: number; count: number; data: string; header: string };
}

async function* readFile(file: Blob, clock: StageClock, hash?: StreamingHash): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < file.size; offset += STREAM_CHUNK_BYTES) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await clock.time('read', file.slice(offset, offset + STREAM_CHUNK_BYTES).arrayBuffer()));
    } catch {
      throw new UploadError('unreadable', 'the file could not be read');
    }
    hash?.update(bytes);
    yield bytes;
  }
}

async function hashAll(
  files: readonly File[],
  clock: StageClock,
  progress: (bytes: number) => void,
): Promise<string[]> {
  const hashes: string[] = [];
  let before = 0;
  for (const file of files) {
    const start = before;
    hashes.push(await hashFileB64(readFile(file, clock), { onProgress: (done) => progress(start + done) }));
    before += file.size;
  }
  return hashes;
}

// Bodies go as Blobs: Chromium sends a typed-array body from a worker at about 9 MB/s, a Blob of the same bytes
// at about 140 MB/s (256 MiB in 20 MiB parts to a local server: 28.7 s against 1.9 s), which made the PUTs most
// of an upload's time.
const blobOf = (bytes: Uint8Array<ArrayBuffer>) => new Blob([bytes]);

async function putObject(target: PutTarget, staging: Staging, onProgress: (bytes: number) => void): Promise<void> {
  if (target.kind === 'single') {
    const body = blobOf(staging.read(0, staging.size));
    await putWithRetries(target.url, () => ({ method: 'PUT', body, headers: { 'Content-MD5': target.md5 } }), 'PUT');
    onProgress(staging.size);
    return;
  }
  const etags: string[] = [];
  let sent = 0;
  for (const part of target.parts) {
    const body = blobOf(staging.read(part.offset, part.length));
    const response = await putWithRetries(
      part.url,
      () => ({ method: 'PUT', body, headers: { 'Content-MD5': part.md5 } }),
      'part PUT',
    );
    const etag = response.headers.get('ETag');
    // The store must expose ETag to the browser (CORS), or the parts cannot be assembled.
    if (!etag) throw new UploadError('server', 'the object store did not expose the part ETag');
    etags.push(etag);
    sent += part.length;
    onProgress(sent);
  }
  const xml = completeMultipartBody(etags);
  await putWithRetries(
    target.completeURL,
    () => ({ method: 'POST', body: xml, headers: { 'Content-Type': 'text/xml' } }),
    'multipart completion',
  );
}

/** The methods of one upload worker; its state is the file it works on, until `dispose`. */
export function createFileJob() {
  let encryption: FileEncryption | undefined;
  let staging: Staging | undefined;
  let picture: Thumbnail | undefined;
  let thumbnail: { bytes: Uint8Array<ArrayBuffer>; header: string; md5: string } | undefined;
  const clock = stageClock();

  const fileKey = () => {
    if (!encryption) throw new Error('the file is not encrypted yet');
    return encryption.key;
  };

  /** Encrypts `plaintextSize` bytes from `source` under a fresh key into the staging; progress in plaintext bytes. */
  const encryptToStaging = async (
    source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
    plaintextSize: number,
    partLength: number,
    progress: (bytes: number) => void,
  ): Promise<EncryptedFileFacts> => {
    const size = streamEncryptedSize(plaintextSize);
    const where = chooseStaging(size, partLength, size > partLength && (await opfsAvailable()));
    if (where === 'tooLarge') throw new UploadError('tooLarge');
    await staging?.dispose();
    staging = where === 'opfs' ? await opfsStaging() : memoryStaging(size);
    const into = staging;
    encryption = await encryptFileForUpload(source, {
      partLength,
      write: (bytes) => {
        const from = performance.now();
        into.write(bytes);
        clock.add('stagingWrite', performance.now() - from);
      },
      onProgress: progress,
    });
    const { hash, header, partMd5s } = encryption;
    return { hash, header, size: encryption.size, partLength, partMd5s };
  };

  return {
    /** Loads what every file needs (libsodium, hash-wasm), so that a new worker is ready before its first file. */
    async ready(): Promise<void> {
      await Promise.all([createBlake2b512Hash(), createMd5Hash()]);
    },

    /** BLAKE2b-512 of the file (b64); progress in bytes read. */
    async hash({ file }: { file: File }, progress: (bytes: number) => void): Promise<string> {
      const [hash] = await hashAll([file], clock, progress);
      return hash ?? '';
    },

    /** The hashes of a live photo's image and video (b64); progress in bytes read over both. */
    async hashLivePhoto(
      { image, video }: { image: File; video: File },
      progress: (bytes: number) => void,
    ): Promise<{ imageHash: string; videoHash: string }> {
      const [imageHash = '', videoHash = ''] = await hashAll([image, video], clock, progress);
      return { imageHash, videoHash };
    },

    /** Encrypts the file under a fresh key into its staging; progress in plaintext bytes. */
    async encrypt(
      { file, partLength }: { file: File; partLength: number },
      progress: (bytes: number) => void,
    ): Promise<EncryptedFileFacts> {
      return encryptToStaging(readFile(file, clock), file.size, partLength, progress);
    },

    /**
     * Encrypts a live photo's ZIP (its image and video, stored, as client-zip writes it while each part is
     * read) under a fresh key into the staging, hashing each part on the way: nothing but a chunk of each is
     * held at once. Progress in bytes of the ZIP.
     */
    async encryptLivePhoto(
      { image, video, partLength }: { image: File; video: File; partLength: number },
      progress: (bytes: number) => void,
    ): Promise<EncryptedFileFacts> {
      const { makeZip, predictLength } = await import('client-zip');
      const entries = livePhotoZipEntries(image, video);
      const [imageHash, videoHash] = [await createBlake2b512Hash(), await createBlake2b512Hash()];
      const zipSize = Number(predictLength(entries));
      const zip = makeZip([
        { ...entries[0], input: readFile(image, clock, imageHash) },
        { ...entries[1], input: readFile(video, clock, videoHash) },
      ]);
      const facts = await encryptToStaging(zip, zipSize, partLength, progress);
      if (encryption?.plaintextSize !== zipSize) throw new UploadError('unknown', 'the ZIP is not the size foreseen');
      return { ...facts, parts: { imageHash: imageHash.digestB64(), videoHash: videoHash.digestB64() } };
    },

    /**
     * Makes the thumbnail JPEG, of the image itself or of a video frame captured by the main thread; no key is
     * needed, so it is made while the file is encrypted. Answers the picture's size (none for a placeholder).
     */
    async makeThumbnail({
      file,
      frame,
    }: {
      file?: File;
      frame?: ImageBitmap;
    }): Promise<{ width?: number; height?: number }> {
      picture = await makeThumbnail(file ? { image: file } : { frame }, clock);
      const { width, height } = picture;
      return width && height ? { width, height } : {};
    },

    /** Encrypts the thumbnail made by `makeThumbnail` under the file key. */
    async sealThumbnail(): Promise<{ size: number; md5: string; header: string }> {
      if (!picture) throw new Error('no thumbnail made yet');
      const encryptFrom = performance.now();
      const blob = await encryptBlobB64(new Uint8Array(await picture.jpeg.arrayBuffer()), fileKey());
      const bytes = fromB64(blob.encryptedData) as Uint8Array<ArrayBuffer>;
      thumbnail = { bytes, header: blob.header, md5: await md5B64(bytes) };
      clock.add('thumbnailEncrypt', performance.now() - encryptFrom);
      return { size: bytes.length, md5: thumbnail.md5, header: blob.header };
    },

    exif({ file }: { file: File }): Promise<ExifFacts> {
      return readExif(file);
    },

    /**
     * The file key boxed with the album's key, the metadata encrypted under the file key, and the public magic
     * metadata (`{w, h}`) as its first version when there is any.
     */
    async seal({
      collectionKey,
      metadata,
      publicMetadata,
    }: {
      collectionKey: string;
      metadata: FileMetadata;
      publicMetadata?: Record<string, unknown>;
    }): Promise<SealedFile> {
      const box = await encryptBoxB64(fileKey(), collectionKey);
      const blob = await encryptBlobB64(utf8Bytes(JSON.stringify(metadata)), fileKey());
      const sealed: SealedFile = {
        encryptedKey: box.encryptedData,
        keyDecryptionNonce: box.nonce,
        metadata: { encryptedData: blob.encryptedData, decryptionHeader: blob.header },
      };
      const count = publicMetadata ? Object.keys(publicMetadata).length : 0;
      if (publicMetadata && count > 0) {
        const magic = await encryptBlobB64(utf8Bytes(JSON.stringify(publicMetadata)), fileKey());
        sealed.pubMagicMetadata = { version: 1, count, data: magic.encryptedData, header: magic.header };
      }
      return sealed;
    },

    /** Another file's key (already in the library) boxed with the target album's key, for add-files. */
    async boxKey({ fileKey: key, collectionKey }: { fileKey: string; collectionKey: string }) {
      const box = await encryptBoxB64(key, collectionKey);
      return { encryptedKey: box.encryptedData, keyDecryptionNonce: box.nonce };
    },

    /** PUTs the staged ciphertext; progress in bytes sent. */
    async putFile({ target }: { target: PutTarget }, progress: (bytes: number) => void): Promise<void> {
      if (!staging) throw new Error('the file is not encrypted yet');
      await putObject(target, staging, progress);
    },

    async putThumbnail({ url }: { url: string }): Promise<void> {
      if (!thumbnail) throw new Error('no thumbnail yet');
      const { bytes, md5 } = thumbnail;
      const body = blobOf(bytes);
      await putWithRetries(url, () => ({ method: 'PUT', body, headers: { 'Content-MD5': md5 } }), 'thumbnail PUT');
    },

    /** The times of this worker's stages since the last call (stage-times.ts). */
    stageTimes(): StageTimes {
      return clock.take(true);
    },

    /** Forgets the file: its key, its thumbnail, and its staging (the OPFS file is removed). */
    async dispose(): Promise<void> {
      clock.take(true);
      await staging?.dispose();
      staging = undefined;
      picture = undefined;
      thumbnail = undefined;
      encryption = undefined;
    },
  };
}

export type FileJob = ReturnType<typeof createFileJob>;
