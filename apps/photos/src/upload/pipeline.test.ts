/** @jest-environment node */
// One file's upload end to end in this process (pipeline.ts driving file-job.ts, the worker's code, directly):
// the object store is a fake behind fetch and the API a recorder, and what was stored is opened again with
// the album key, so the test proves the ciphertext, thumbnail and metadata the pipeline sends decrypt to the
// original. Only the browser's image decoding (createImageBitmap, OffscreenCanvas) is stubbed, as Node has none.
import { createHash, randomBytes } from 'node:crypto';

import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';

import { decryptBlobBytes, decryptBoxB64, decryptStreamBytes, generateKeyB64, toB64, utf8String } from '@ente/crypto';
import { streamEncryptedSize } from '@ente/crypto/stream-sizes.ts';
import type { CreateFileRequest, PhotoFile } from '@ente/protocol';

import { readZipEntries } from '../download/live-photo.ts';
import { FileType, type GalleryFile } from '../library/types.ts';
import { createFileJob } from './file-job.ts';
import { uploadOneFile, type PipelineDeps } from './pipeline.ts';
import type { UploadRunControl } from './queue.ts';
import type { UploadProfileEntry } from './stage-times.ts';
import { UploadError } from './types.ts';
import type { UploadApi } from './upload-api.ts';
import type { UploadWorker } from './worker-client.ts';
import { createWorkerPool } from './worker-pool.ts';

const MiB = 1024 * 1024;

/** file-job.ts behind the same interface as a real worker, in this process. */
function inProcessWorker(log: string[]): UploadWorker {
  const job = createFileJob();
  let ended: Error | undefined;
  return {
    async call(method, args, options) {
      if (ended) throw ended;
      log.push(method);
      const handler = job[method] as (a: unknown, p: (n: number) => void) => Promise<never>;
      return handler(args, options?.onProgress ?? (() => undefined));
    },
    terminate(reason = new UploadError('cancelled')) {
      ended = reason;
      log.push('terminate');
    },
  };
}

/** A fake object store behind fetch: PUTs keep their body (checked against Content-MD5), completions assemble. */
function fakeStore() {
  const objects = new Map<string, Uint8Array>();
  const requests: { method: string; url: string; md5?: string }[] = [];
  let refuse: number | undefined;
  const fetchMock = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : input.toString();
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    requests.push({ method, url, md5: headers.get('Content-MD5') ?? undefined });
    if (refuse) return new Response('', { status: refuse });
    if (method === 'PUT') {
      const body = new Uint8Array(await new Response(init?.body).arrayBuffer());
      expect(headers.get('Content-MD5')).toBe(createHash('md5').update(body).digest('base64'));
      objects.set(url, body);
      return new Response('', { status: 200, headers: { ETag: `"etag-${objects.size}"` } });
    }
    const xml = typeof init?.body === 'string' ? init.body : '';
    const etags = [...xml.matchAll(/<ETag>"etag-(\d+)"<\/ETag>/g)].map((match) => Number(match[1]));
    const parts = [...objects.entries()].filter(([key]) => key.startsWith(url.replace('?complete', '?part=')));
    expect(etags).toHaveLength(parts.length);
    objects.set(url.replace('?complete', ''), Buffer.concat(parts.map(([, bytes]) => bytes)));
    return new Response('<CompleteMultipartUploadResult/>', { status: 200 });
  });
  return {
    objects,
    requests,
    refuseWith: (status: number) => (refuse = status),
    restore: () => fetchMock.mockRestore(),
  };
}

function recordingApi() {
  const calls: { route: string; body: unknown }[] = [];
  let next = 0;
  const api: UploadApi = {
    uploadURL(body) {
      calls.push({ route: 'upload-url', body });
      const objectKey = `7/object-${++next}`;
      return Promise.resolve({ objectKey, url: `https://store.test/${objectKey}` });
    },
    multipartUploadURLs(body) {
      calls.push({ route: 'multipart-upload-url', body });
      const objectKey = `7/object-${++next}`;
      const partURLs = body.partMd5s.map((_, i) => `https://store.test/${objectKey}?part=${i + 1}`);
      return Promise.resolve({ objectKey, partURLs, completeURL: `https://store.test/${objectKey}?complete` });
    },
    createFile(body: CreateFileRequest) {
      calls.push({ route: 'files', body });
      return Promise.resolve({ id: 99, collectionID: body.collectionID } as PhotoFile);
    },
    addFiles(body) {
      calls.push({ route: 'add-files', body });
      return Promise.resolve();
    },
  };
  return { api, calls };
}

function control(signal = new AbortController().signal) {
  const statuses: string[] = [];
  const progress: { done: number; total?: number }[] = [];
  const value: UploadRunControl = {
    signal,
    setStatus: (status) => statuses.push(status),
    setProgress: (done, total) => progress.push({ done, total }),
  };
  return { value, statuses, progress };
}

// The browser's image pipeline: a 4000×3000 picture whose JPEG gets smaller with the quality.
const drawn: { width: number; height: number }[] = [];
beforeEach(() => {
  drawn.length = 0;
  Object.assign(globalThis, {
    createImageBitmap: (blob: Blob) =>
      blob.type === 'image/x-undecodable'
        ? Promise.reject(new Error('cannot decode'))
        : Promise.resolve({ width: 4000, height: 3000, close: () => undefined }),
    OffscreenCanvas: class {
      constructor(
        readonly width: number,
        readonly height: number,
      ) {
        drawn.push({ width, height });
      }
      getContext() {
        return { drawImage: () => undefined, fillRect: () => undefined };
      }
      convertToBlob({ quality = 1 }: { quality?: number }) {
        return Promise.resolve(new Blob([new Uint8Array(Math.round(quality * 180_000))], { type: 'image/jpeg' }));
      }
    },
  });
});
afterEach(() => {
  delete (globalThis as { createImageBitmap?: unknown }).createImageBitmap;
  delete (globalThis as { OffscreenCanvas?: unknown }).OffscreenCanvas;
});

async function setup(existing: GalleryFile[] = []) {
  const store = fakeStore();
  const { api, calls } = recordingApi();
  const workerLog: string[] = [];
  const collectionKey = await generateKeyB64();
  const workers = createWorkerPool(() => inProcessWorker(workerLog), 2);
  const deps: PipelineDeps = {
    api,
    workers,
    existingFiles: () => existing,
    userID: () => 7,
    captureVideoFrame: () => Promise.resolve(undefined),
  };
  return { store, api, calls, workerLog, workers, collectionKey, deps, target: { collectionID: 5, collectionKey } };
}

async function openUpload(request: CreateFileRequest, objects: Map<string, Uint8Array>, collectionKey: string) {
  const fileKey = await decryptBoxB64(
    { encryptedData: request.encryptedKey, nonce: request.keyDecryptionNonce },
    collectionKey,
  );
  const object = (key: string) => objects.get(`https://store.test/${key}`) ?? new Uint8Array();
  return {
    bytes: await decryptStreamBytes(object(request.file.objectKey), request.file.decryptionHeader, fileKey),
    thumbnail: await decryptBlobBytes(
      { encryptedData: toB64(object(request.thumbnail.objectKey)), header: request.thumbnail.decryptionHeader },
      fileKey,
    ),
    metadata: JSON.parse(
      utf8String(
        await decryptBlobBytes(
          { encryptedData: request.metadata.encryptedData, header: request.metadata.decryptionHeader },
          fileKey,
        ),
      ),
    ) as Record<string, unknown>,
    fileKey,
  };
}

describe('uploadOneFile', () => {
  let env: Awaited<ReturnType<typeof setup>>;
  afterEach(() => env.store.restore());

  test('an image: one PUT each for file and thumbnail, POST /files, and it all opens back to the original', async () => {
    env = await setup();
    const data = randomBytes(MiB + 3);
    const file = new File([data], 'IMG_0001.jpg', { type: 'image/jpeg', lastModified: 1_600_000_000_000 });
    const run = control();
    const outcome = await uploadOneFile({ file, target: env.target }, run.value, env.deps);

    expect(outcome).toEqual({ kind: 'uploaded', file: { id: 99, collectionID: 5 } });
    expect(env.calls.map((call) => call.route)).toEqual(['upload-url', 'upload-url', 'files']);
    const request = env.calls[2]!.body as CreateFileRequest;
    const opened = await openUpload(request, env.store.objects, env.collectionKey);
    expect(Buffer.from(opened.bytes).equals(data)).toBe(true);
    expect(opened.metadata).toEqual({
      title: 'IMG_0001.jpg',
      creationTime: 1_600_000_000_000_000,
      modificationTime: 1_600_000_000_000_000,
      fileType: FileType.image,
      hash: createHash('blake2b512').update(data).digest('base64'),
    });
    // 720 px on the longest side; quality lowered until ≤ 100 KB (0.55 × 180,000 = 99,000 bytes here).
    expect(drawn).toEqual([{ width: 720, height: 540 }]);
    expect(opened.thumbnail).toHaveLength(99_000);
    expect(request.file.size).toBe(MiB + 3 + 17);
    expect(request.thumbnail.size).toBe(99_000 + 17);
    expect(request.collectionID).toBe(5);
    // The picture's size as public magic metadata, version 1, as Ente's clients write and read it.
    const magic = request.pubMagicMetadata!;
    expect([magic.version, magic.count]).toEqual([1, 2]);
    const size = await decryptBlobBytes({ encryptedData: magic.data, header: magic.header }, opened.fileKey);
    expect(JSON.parse(utf8String(size))).toEqual({ w: 4000, h: 3000 });
    expect(env.calls[0]!.body).toEqual({ contentLength: MiB + 20, contentMD5: env.store.requests[0]!.md5 });
    expect(run.statuses).toEqual(['encrypting', 'uploading', 'finishing']);
    expect(run.progress[0]).toEqual({ done: 0, total: 2 * (MiB + 3) });
    expect(run.progress.at(-1)!.done).toBe(MiB + 3 + MiB + 20);
    // A new worker loads libsodium and hash-wasm first; once reset, it waits in the pool for the next file.
    expect(env.workerLog).toEqual([
      'ready',
      'encrypt',
      'makeThumbnail',
      'exif',
      'sealThumbnail',
      'seal',
      'putFile',
      'putThumbnail',
      'dispose',
    ]);
    expect(env.workers.idleCount()).toBe(1);
  });

  test('a live photo: the ZIP of its image and video as one file, the image’s thumbnail, both hashes', async () => {
    env = await setup();
    const imageBytes = randomBytes(5 * MiB + 11);
    const videoBytes = randomBytes(700_000);
    const image = new File([imageBytes], 'IMG_7.HEIC', { type: 'image/heic', lastModified: 1_700_000_000_000 });
    const video = new File([videoBytes], 'IMG_7.MOV', { type: 'video/quicktime', lastModified: 1_700_000_001_000 });
    const outcome = await uploadOneFile({ file: image, video, target: env.target }, control().value, env.deps);
    expect(outcome.kind).toBe('uploaded');
    const request = env.calls.at(-1)!.body as CreateFileRequest;
    const opened = await openUpload(request, env.store.objects, env.collectionKey);
    const zip = new Uint8Array(opened.bytes);
    const entries = await readZipEntries(zip);
    expect(entries.map((entry) => entry.name)).toEqual(['image.HEIC', 'video.MOV']);
    expect(Buffer.from(entries[0]!.bytes).equals(imageBytes)).toBe(true);
    expect(Buffer.from(entries[1]!.bytes).equals(videoBytes)).toBe(true);
    expect(request.file.size).toBe(streamEncryptedSize(zip.length));
    // The image's name and time, both hashes instead of one.
    const { imageHash, videoHash, ...rest } = opened.metadata;
    const b2 = (bytes: Buffer) => createHash('blake2b512').update(bytes).digest('base64');
    expect([imageHash, videoHash]).toEqual([b2(imageBytes), b2(videoBytes)]);
    const time = 1_700_000_000_000_000;
    expect(rest).toEqual({ title: 'IMG_7.HEIC', creationTime: time, modificationTime: time, fileType: 2 });
    // The thumbnail is drawn from the image (a video would need a frame from the main thread).
    expect(opened.thumbnail).toHaveLength(99_000);
    expect(env.workerLog.slice(0, 4)).toEqual(['ready', 'encryptLivePhoto', 'makeThumbnail', 'exif']);
  });

  test('a live photo already in the album (both hashes, title, type): skipped after hashing its two parts', async () => {
    const imageBytes = randomBytes(2000);
    const videoBytes = randomBytes(3000);
    const b2 = (bytes: Buffer) => createHash('blake2b512').update(bytes).digest('base64');
    env = await setup([
      {
        id: 43,
        ownerID: 7,
        collectionIDs: [5],
        key: await generateKeyB64(),
        fileHeader: '',
        thumbnailHeader: '',
        updationTime: 0,
        metadata: {
          title: 'IMG_8.jpg',
          creationTime: 0,
          modificationTime: 0,
          fileType: FileType.livePhoto,
          imageHash: b2(imageBytes),
          videoHash: b2(videoBytes),
        },
      },
    ]);
    const job = { file: new File([imageBytes], 'IMG_8.jpg'), video: new File([videoBytes], 'IMG_8.mov') };
    expect(await uploadOneFile({ ...job, target: env.target }, control().value, env.deps)).toEqual({
      kind: 'skipped',
      existingFileID: 43,
    });
    expect(env.workerLog).toEqual(['ready', 'hashLivePhoto', 'dispose']);
    // Another video with the same image is another live photo.
    env.workerLog.length = 0;
    const other = { ...job, video: new File([randomBytes(3000)], 'IMG_8.mov') };
    expect((await uploadOneFile({ ...other, target: env.target }, control().value, env.deps)).kind).toBe('uploaded');
  });

  test('a live photo whose parts are not an image and a video is refused', async () => {
    env = await setup();
    const job = { file: new File(['a'], 'a.mov'), video: new File(['b'], 'a.mp4'), target: env.target };
    await expect(uploadOneFile(job, control().value, env.deps)).rejects.toMatchObject({ reason: 'unsupported' });
  });

  test('a large video: multipart with every part MD5 first, completion XML, placeholder thumbnail', async () => {
    env = await setup();
    const data = randomBytes(9 * MiB);
    const file = new File([data], 'clip.mov', { type: '', lastModified: 1000 });
    const outcome = await uploadOneFile({ file, target: env.target }, control().value, {
      ...env.deps,
      partLength: 5 * MiB,
    });
    expect(outcome.kind).toBe('uploaded');
    expect(env.calls.map((call) => call.route)).toEqual(['multipart-upload-url', 'upload-url', 'files']);
    const multipart = env.calls[0]!.body as { contentLength: number; partLength: number; partMd5s: string[] };
    expect(multipart).toMatchObject({ contentLength: 9 * MiB + 3 * 17, partLength: 5 * MiB });
    expect(multipart.partMd5s).toHaveLength(2);
    const putMd5s = env.store.requests.filter((r) => r.url.includes('?part=')).map((r) => r.md5);
    expect(putMd5s).toEqual(multipart.partMd5s);
    const request = env.calls[2]!.body as CreateFileRequest;
    const opened = await openUpload(request, env.store.objects, env.collectionKey);
    expect(Buffer.from(opened.bytes).equals(data)).toBe(true);
    expect(opened.metadata).toMatchObject({ title: 'clip.mov', fileType: FileType.video, creationTime: 1_000_000 });
    expect(drawn).toEqual([{ width: 256, height: 256 }]);
    expect(request.pubMagicMetadata).toBeUndefined();
  });

  test('an image no decoder reads still uploads, with a placeholder thumbnail', async () => {
    env = await setup();
    const file = new File([randomBytes(100)], 'photo.heic', { type: 'image/x-undecodable' });
    expect((await uploadOneFile({ file, target: env.target }, control().value, env.deps)).kind).toBe('uploaded');
    expect(drawn).toEqual([{ width: 256, height: 256 }]);
  });

  const data = randomBytes(1000);
  const hash = createHash('blake2b512').update(data).digest('base64');
  const galleryFile = (collectionIDs: number[], key: string): GalleryFile => ({
    id: 42,
    ownerID: 7,
    collectionIDs,
    key,
    fileHeader: '',
    thumbnailHeader: '',
    updationTime: 0,
    metadata: { title: 'a.jpg', creationTime: 0, modificationTime: 0, fileType: FileType.image, hash },
  });

  test('already in the album: hashed first, skipped, nothing encrypted or sent', async () => {
    env = await setup([galleryFile([5], await generateKeyB64())]);
    const run = control();
    const skipped = await uploadOneFile({ file: new File([data], 'a.jpg'), target: env.target }, run.value, env.deps);
    expect(skipped).toEqual({ kind: 'skipped', existingFileID: 42 });
    expect(env.calls).toEqual([]);
    expect(env.store.requests).toEqual([]);
    expect(env.workerLog).toEqual(['ready', 'hash', 'dispose']);
  });

  test('in another album of mine: added to the target with its key boxed with the target’s key', async () => {
    const fileKey = await generateKeyB64();
    env = await setup([galleryFile([6], fileKey)]);
    const outcome = await uploadOneFile(
      { file: new File([data], 'a.jpg'), target: env.target },
      control().value,
      env.deps,
    );
    expect(outcome).toEqual({ kind: 'added', existingFileID: 42 });
    expect(env.calls.map((call) => call.route)).toEqual(['add-files']);
    const body = env.calls[0]!.body as {
      collectionID: number;
      files: { id: number; encryptedKey: string; keyDecryptionNonce: string }[];
    };
    expect(body.collectionID).toBe(5);
    const [item] = body.files;
    expect(item!.id).toBe(42);
    expect(
      await decryptBoxB64({ encryptedData: item!.encryptedKey, nonce: item!.keyDecryptionNonce }, env.collectionKey),
    ).toBe(fileKey);
  });

  test('same title but other bytes: hashed first, then uploaded', async () => {
    env = await setup([galleryFile([5], await generateKeyB64())]);
    const run = control();
    const outcome = await uploadOneFile(
      { file: new File([randomBytes(1000)], 'a.jpg'), target: env.target },
      run.value,
      env.deps,
    );
    expect(outcome.kind).toBe('uploaded');
    expect(run.statuses).toEqual(['hashing', 'encrypting', 'uploading', 'finishing']);
    expect(run.progress[0]).toEqual({ done: 0, total: 3000 });
  });

  test('unsupported files fail before any worker starts', async () => {
    env = await setup();
    const failure = uploadOneFile(
      { file: new File(['x'], 'notes.txt', { type: 'text/plain' }), target: env.target },
      control().value,
      env.deps,
    );
    await expect(failure).rejects.toMatchObject({ name: 'UploadError', reason: 'unsupported' });
    expect(env.workerLog).toEqual([]);
  });

  test('cancelling ends the worker and rejects as cancelled', async () => {
    env = await setup();
    const controller = new AbortController();
    const run = control(controller.signal);
    run.value.setStatus = (status) => {
      if (status === 'uploading') controller.abort();
    };
    const failure = uploadOneFile(
      { file: new File([randomBytes(10)], 'a.png'), target: env.target },
      run.value,
      env.deps,
    );
    await expect(failure).rejects.toMatchObject({ reason: 'cancelled' });
    expect(env.workerLog).toContain('terminate');
    expect(env.calls.map((call) => call.route)).not.toContain('files');
    // The ended worker is not handed to the next file: that one starts a new worker.
    expect(env.workers.idleCount()).toBe(0);
    env.workerLog.length = 0;
    const next = await uploadOneFile(
      { file: new File([randomBytes(10)], 'b.png'), target: env.target },
      control().value,
      env.deps,
    );
    expect(next.kind).toBe('uploaded');
    expect(env.workerLog[0]).toBe('ready');
  });

  test('files in a row share one worker, loaded once and reset between them; the profile gets their stage times', async () => {
    env = await setup();
    const profiles: UploadProfileEntry[] = [];
    const deps = { ...env.deps, onProfile: (entry: UploadProfileEntry) => profiles.push(entry) };
    const first = randomBytes(3000);
    const second = randomBytes(5000);
    await uploadOneFile({ file: new File([first], 'one.jpg'), target: env.target }, control().value, deps);
    await uploadOneFile({ file: new File([second], 'two.PNG'), target: env.target }, control().value, deps);
    expect(env.workerLog.filter((method) => method === 'ready')).toHaveLength(1);
    expect(env.workerLog.filter((method) => method === 'dispose')).toHaveLength(2);
    expect(env.workerLog).not.toContain('terminate');
    // Each file has its own key and its own bytes: nothing of the first is left in the reused worker.
    const [one, two] = env.calls.filter((call) => call.route === 'files').map((call) => call.body as CreateFileRequest);
    const openedOne = await openUpload(one!, env.store.objects, env.collectionKey);
    const openedTwo = await openUpload(two!, env.store.objects, env.collectionKey);
    expect(Buffer.from(openedOne.bytes).equals(first)).toBe(true);
    expect(Buffer.from(openedTwo.bytes).equals(second)).toBe(true);
    expect(openedOne.fileKey).not.toBe(openedTwo.fileKey);
    expect(profiles.map(({ kind, bytes, outcome, newWorker }) => ({ kind, bytes, outcome, newWorker }))).toEqual([
      { kind: 'jpg', bytes: 3000, outcome: 'uploaded', newWorker: true },
      { kind: 'png', bytes: 5000, outcome: 'uploaded', newWorker: false },
    ]);
    expect(Object.keys(profiles[0]!.stages)).toEqual(
      expect.arrayContaining([
        'workerStart',
        'encrypt',
        'thumbnail',
        'exif',
        'seal',
        'uploadURLs',
        'put',
        'createFile',
      ]),
    );
    expect(Object.keys(profiles[1]!.stages)).not.toContain('workerStart');
    expect(Object.keys(profiles[1]!.stages)).toEqual(expect.arrayContaining(['read', 'thumbnailDecode']));
  });

  test('a store that refuses the PUT fails the file as a server error, without POST /files', async () => {
    env = await setup();
    env.store.refuseWith(403);
    const failure = uploadOneFile(
      { file: new File([randomBytes(10)], 'a.png'), target: env.target },
      control().value,
      env.deps,
    );
    await expect(failure).rejects.toMatchObject({ reason: 'server' });
    expect(env.calls.map((call) => call.route)).toEqual(['upload-url', 'upload-url']);
  });
});
