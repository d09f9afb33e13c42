// One file's upload as the main thread conducts it (the queue's `run`): every heavy step happens in an upload
// worker (file-job.ts) taken from the queue's pool for this file; here only decisions and the API calls.
//
// 1. Its type from its MIME type or extension (unsupported: fail), its size within the server's limit. A live
//    photo (an image and a video handed in together) is one file: the ZIP of the two, its image's thumbnail,
//    EXIF and name, its metadata with `imageHash` and `videoHash` (live-photos.ts).
// 2. When the library has a file of the same title and type, the worker hashes it first and the duplicate rule
//    decides (duplicates.ts): skipped, or added from another album with its key boxed again, or uploaded.
// 3. The worker encrypts it under a fresh key into its staging (hashing it on the way, and checking the rule
//    then if it did not before) while it makes the thumbnail (a video's frame is captured here) and reads its
//    EXIF; then it encrypts the thumbnail and seals the metadata, the picture's size as public magic metadata
//    (`{w, h}`, which Ente's clients read), and the file key boxed with the album's key.
// 4. Upload URLs for the file (one, or one per part with every part's MD5) and the thumbnail, asked together;
//    the worker PUTs both at once.
// 5. POST /files. The worker's state is reset and it goes back to the pool; a cancelled file's worker is ended.
import { streamEncryptedSize } from '@ente/crypto/stream-sizes.ts';

import { FileType, type GalleryFile } from '../library/types.ts';
import { contentHash, decideDuplicate, mayBeDuplicate, type DuplicateDecision } from './duplicates.ts';
import type { PutTarget } from './file-job.ts';
import { buildFileMetadata, buildPublicMetadata, fileTypeOf, type ExifFacts } from './metadata.ts';
import { MAX_OBJECT_BYTES, planObjectUpload, UPLOAD_PART_BYTES } from './plan.ts';
import { fileWork, workBefore } from './progress.ts';
import { itemBytes, type UploadJob, type UploadRunControl } from './queue.ts';
import { stageClock, type UploadProfileEntry } from './stage-times.ts';
import { UploadError, type UploadOutcome, type UploadTarget } from './types.ts';
import type { UploadApi } from './upload-api.ts';
import type { UploadWorker } from './worker-client.ts';
import type { WorkerPool } from './worker-pool.ts';

export interface PipelineDeps {
  api: UploadApi;
  /** The queue's upload workers (worker-pool.ts). */
  workers: WorkerPool<UploadWorker>;
  /** The library's files now (for the duplicate rule). */
  existingFiles(): readonly GalleryFile[];
  /** The signed-in user's id (only their own files are added from another album). */
  userID(): number;
  captureVideoFrame(file: File, signal: AbortSignal): Promise<ImageBitmap | undefined>;
  partLength?: number;
  /** Given each file's stage times when set (a profile was asked for). */
  onProfile?(entry: UploadProfileEntry): void;
}

/** Like Promise.all, but a failure is thrown only once every promise settled (the worker is idle before its reset). */
async function allSettled<T extends readonly unknown[] | []>(
  promises: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(promises);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}

/** The item's metadata type: a file's by its MIME type or name; a live photo's parts must be an image and a video. */
function itemFileType({ file, video }: UploadJob): FileType | undefined {
  const fileType = fileTypeOf(file.name, file.type);
  if (!video) return fileType;
  const parts = fileType === FileType.image && fileTypeOf(video.name, video.type) === FileType.video;
  return parts ? FileType.livePhoto : undefined;
}

export async function uploadOneFile(
  job: UploadJob,
  control: UploadRunControl,
  deps: PipelineDeps,
): Promise<UploadOutcome> {
  const { file, video, target } = job;
  const { signal } = control;
  const fileType = itemFileType(job);
  if (fileType === undefined) throw new UploadError('unsupported');
  const bytes = itemBytes(job);
  if (streamEncryptedSize(bytes) > MAX_OBJECT_BYTES) throw new UploadError('tooLarge');
  const partLength = deps.partLength ?? UPLOAD_PART_BYTES;
  signal.throwIfAborted();

  const clock = stageClock();
  const startedAt = performance.now();
  let outcome = 'failed';
  const { worker, fresh } = deps.workers.take();
  const cancel = () => worker.terminate(new UploadError('cancelled'));
  signal.addEventListener('abort', cancel, { once: true });
  try {
    if (fresh) await clock.time('workerStart', worker.call('ready', undefined));
    const hashesFirst = mayBeDuplicate(file.name, fileType, deps.existingFiles());
    control.setProgress(0, fileWork(bytes, hashesFirst));
    const decide = (hash: string) =>
      decideDuplicate({ title: file.name, fileType, hash }, target.collectionID, deps.existingFiles(), deps.userID());

    if (hashesFirst) {
      control.setStatus('hashing');
      const onProgress = (done: number) => control.setProgress(done);
      const hash = await clock.time('hash', async () =>
        video
          ? contentHash(await worker.call('hashLivePhoto', { image: file, video }, { onProgress }))
          : await worker.call('hash', { file }, { onProgress }),
      );
      const decision = decide(hash ?? '');
      if (decision.kind !== 'upload') {
        outcome = decision.kind;
        return await settleDuplicate(decision, target, worker, deps.api, signal);
      }
    }

    control.setStatus('encrypting');
    const encryptingFrom = workBefore('encrypting', bytes, hashesFirst);
    const onProgress = (done: number) => control.setProgress(encryptingFrom + done);
    // The thumbnail and the EXIF need no key: they are made while the file is encrypted (an image is decoded by
    // the browser's decoder beside the encryption; a video's frame is captured on this thread meanwhile).
    const [encrypted, picture, exif] = await allSettled([
      clock.time(
        'encrypt',
        video
          ? worker.call('encryptLivePhoto', { image: file, video, partLength }, { onProgress })
          : worker.call('encrypt', { file, partLength }, { onProgress }),
      ),
      clock.time('thumbnail', async () => {
        if (fileType !== FileType.video) return worker.call('makeThumbnail', { file });
        const frame = await clock.time('videoFrame', deps.captureVideoFrame(file, signal));
        return worker.call('makeThumbnail', frame ? { frame } : {}, { transfer: frame ? [frame] : [] });
      }),
      fileType !== FileType.video ? clock.time('exif', worker.call('exif', { file })) : Promise.resolve<ExifFacts>({}),
    ]);
    const hash = encrypted.parts ?? encrypted.hash;
    if (!hashesFirst) {
      const decision = decide(typeof hash === 'string' ? hash : (contentHash(hash) ?? ''));
      if (decision.kind !== 'upload') {
        outcome = decision.kind;
        return await settleDuplicate(decision, target, worker, deps.api, signal);
      }
    }

    const metadata = buildFileMetadata({ name: file.name, fileType, lastModified: file.lastModified, hash, exif });
    const [thumbnail, sealed] = await clock.time(
      'seal',
      allSettled([
        worker.call('sealThumbnail', undefined),
        worker.call('seal', {
          collectionKey: target.collectionKey,
          metadata,
          publicMetadata: buildPublicMetadata(picture),
        }),
      ]),
    );

    control.setStatus('uploading');
    const plan = planObjectUpload(encrypted.size, encrypted.partLength, encrypted.partMd5s);
    const fileURLs = async (): Promise<{ put: PutTarget; objectKey: string }> => {
      if (plan.kind === 'single') {
        const answer = await deps.api.uploadURL({ contentLength: plan.size, contentMD5: plan.md5 }, signal);
        return { put: { kind: 'single', url: answer.url, md5: plan.md5 }, objectKey: answer.objectKey };
      }
      const answer = await deps.api.multipartUploadURLs(
        { contentLength: plan.size, partLength: plan.partLength, partMd5s: plan.parts.map((part) => part.md5) },
        signal,
      );
      if (answer.partURLs.length !== plan.parts.length) throw new UploadError('server', 'wrong number of part URLs');
      const parts = plan.parts.map((part, index) => ({ ...part, url: answer.partURLs[index] ?? '' }));
      return { put: { kind: 'multipart', parts, completeURL: answer.completeURL }, objectKey: answer.objectKey };
    };
    const [fileURL, thumbnailURL] = await clock.time(
      'uploadURLs',
      allSettled([
        fileURLs(),
        deps.api.uploadURL({ contentLength: thumbnail.size, contentMD5: thumbnail.md5 }, signal),
      ]),
    );
    const uploadingFrom = workBefore('uploading', bytes, hashesFirst);
    await clock.time(
      'put',
      allSettled([
        worker.call(
          'putFile',
          { target: fileURL.put },
          { onProgress: (sent) => control.setProgress(uploadingFrom + sent) },
        ),
        worker.call('putThumbnail', { url: thumbnailURL.url }),
      ]),
    );

    control.setStatus('finishing');
    const created = await clock.time(
      'createFile',
      deps.api.createFile(
        {
          collectionID: target.collectionID,
          encryptedKey: sealed.encryptedKey,
          keyDecryptionNonce: sealed.keyDecryptionNonce,
          file: { objectKey: fileURL.objectKey, decryptionHeader: encrypted.header, size: encrypted.size },
          thumbnail: { objectKey: thumbnailURL.objectKey, decryptionHeader: thumbnail.header, size: thumbnail.size },
          metadata: sealed.metadata,
          ...(sealed.pubMagicMetadata ? { pubMagicMetadata: sealed.pubMagicMetadata } : {}),
        },
        signal,
      ),
    );
    outcome = 'uploaded';
    return { kind: 'uploaded', file: created };
  } finally {
    signal.removeEventListener('abort', cancel);
    if (deps.onProfile && !signal.aborted) {
      const inWorker = await worker.call('stageTimes', undefined).catch(() => ({}));
      const stages = { ...clock.take(), ...inWorker };
      const kind = /\.([^./]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
      deps.onProfile({ kind, bytes, outcome, startedAt, endedAt: performance.now(), newWorker: fresh, stages });
    }
    // Reset for the next file; a cancelled file's worker was ended, and one that cannot reset is.
    const reset =
      !signal.aborted &&
      (await worker.call('dispose', undefined).then(
        () => true,
        () => false,
      ));
    deps.workers.give(worker, reset);
  }
}

async function settleDuplicate(
  decision: Exclude<DuplicateDecision, { kind: 'upload' }>,
  target: UploadTarget,
  worker: UploadWorker,
  api: UploadApi,
  signal: AbortSignal,
): Promise<UploadOutcome> {
  const existingFileID = decision.existing.id;
  if (decision.kind === 'skip') return { kind: 'skipped', existingFileID };
  const boxed = await worker.call('boxKey', { fileKey: decision.existing.key, collectionKey: target.collectionKey });
  await api.addFiles({ collectionID: target.collectionID, files: [{ id: existingFileID, ...boxed }] }, signal);
  return { kind: 'added', existingFileID };
}
