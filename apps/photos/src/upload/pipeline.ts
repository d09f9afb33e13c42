// One file's upload as the main thread conducts it (the queue's `run`): every heavy step happens in the file's
// upload worker (file-job.ts); here only decisions and the API calls.
//
// 1. Its type from its MIME type or extension (unsupported: fail), its size within the server's limit. A live
//    photo (an image and a video handed in together) is one file: the ZIP of the two, its image's thumbnail,
//    EXIF and name, its metadata with `imageHash` and `videoHash` (live-photos.ts).
// 2. When the library has a file of the same title and type, the worker hashes it first and the duplicate rule
//    decides (duplicates.ts): skipped, or added from another album with its key boxed again, or uploaded.
// 3. The worker encrypts it under a fresh key into its staging (hashing it on the way, and checking the rule
//    then if it did not before), makes and encrypts the thumbnail (a video's frame is captured here first),
//    reads its EXIF, and seals the metadata, the picture's size as public magic metadata (`{w, h}`, which
//    Ente's clients read), and the file key boxed with the album's key.
// 4. Upload URLs for the file (one, or one per part with every part's MD5) and the thumbnail; the worker PUTs.
// 5. POST /files. The worker ends in every case, cancelled included.
import { streamEncryptedSize } from '@ente/crypto/stream-sizes.ts';

import { FileType, type GalleryFile } from '../library/types.ts';
import { contentHash, decideDuplicate, mayBeDuplicate, type DuplicateDecision } from './duplicates.ts';
import type { EncryptedFileFacts, PutTarget } from './file-job.ts';
import { buildFileMetadata, buildPublicMetadata, fileTypeOf, type ExifFacts } from './metadata.ts';
import { MAX_OBJECT_BYTES, planObjectUpload, UPLOAD_PART_BYTES } from './plan.ts';
import { fileWork, workBefore } from './progress.ts';
import { itemBytes, type UploadJob, type UploadRunControl } from './queue.ts';
import { UploadError, type UploadOutcome, type UploadTarget } from './types.ts';
import type { UploadApi } from './upload-api.ts';
import type { UploadWorker } from './worker-client.ts';

export interface PipelineDeps {
  api: UploadApi;
  startWorker(): UploadWorker;
  /** The library's files now (for the duplicate rule). */
  existingFiles(): readonly GalleryFile[];
  /** The signed-in user's id (only their own files are added from another album). */
  userID(): number;
  captureVideoFrame(file: File, signal: AbortSignal): Promise<ImageBitmap | undefined>;
  partLength?: number;
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

  const worker = deps.startWorker();
  const cancel = () => worker.terminate(new UploadError('cancelled'));
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const hashesFirst = mayBeDuplicate(file.name, fileType, deps.existingFiles());
    control.setProgress(0, fileWork(bytes, hashesFirst));
    const decide = (hash: string) =>
      decideDuplicate({ title: file.name, fileType, hash }, target.collectionID, deps.existingFiles(), deps.userID());

    if (hashesFirst) {
      control.setStatus('hashing');
      const onProgress = (done: number) => control.setProgress(done);
      const hash = video
        ? contentHash(await worker.call('hashLivePhoto', { image: file, video }, { onProgress }))
        : await worker.call('hash', { file }, { onProgress });
      const decision = decide(hash ?? '');
      if (decision.kind !== 'upload') return await settleDuplicate(decision, target, worker, deps.api, signal);
    }

    control.setStatus('encrypting');
    const encryptingFrom = workBefore('encrypting', bytes, hashesFirst);
    const onProgress = (done: number) => control.setProgress(encryptingFrom + done);
    const encrypted: EncryptedFileFacts = video
      ? await worker.call('encryptLivePhoto', { image: file, video, partLength }, { onProgress })
      : await worker.call('encrypt', { file, partLength }, { onProgress });
    const hash = encrypted.parts ?? encrypted.hash;
    if (!hashesFirst) {
      const decision = decide(typeof hash === 'string' ? hash : (contentHash(hash) ?? ''));
      if (decision.kind !== 'upload') return await settleDuplicate(decision, target, worker, deps.api, signal);
    }

    const frame = fileType === FileType.video ? await deps.captureVideoFrame(file, signal) : undefined;
    const thumbnail = await worker.call('thumbnail', fileType === FileType.video ? { frame } : { file }, {
      transfer: frame ? [frame] : [],
    });
    const exif: ExifFacts = fileType !== FileType.video ? await worker.call('exif', { file }) : {};
    const metadata = buildFileMetadata({ name: file.name, fileType, lastModified: file.lastModified, hash, exif });
    const sealed = await worker.call('seal', {
      collectionKey: target.collectionKey,
      metadata,
      publicMetadata: buildPublicMetadata(thumbnail),
    });

    control.setStatus('uploading');
    const plan = planObjectUpload(encrypted.size, encrypted.partLength, encrypted.partMd5s);
    let put: PutTarget;
    let fileObjectKey: string;
    if (plan.kind === 'single') {
      const answer = await deps.api.uploadURL({ contentLength: plan.size, contentMD5: plan.md5 }, signal);
      put = { kind: 'single', url: answer.url, md5: plan.md5 };
      fileObjectKey = answer.objectKey;
    } else {
      const answer = await deps.api.multipartUploadURLs(
        { contentLength: plan.size, partLength: plan.partLength, partMd5s: plan.parts.map((part) => part.md5) },
        signal,
      );
      if (answer.partURLs.length !== plan.parts.length) throw new UploadError('server', 'wrong number of part URLs');
      const parts = plan.parts.map((part, index) => ({ ...part, url: answer.partURLs[index] ?? '' }));
      put = { kind: 'multipart', parts, completeURL: answer.completeURL };
      fileObjectKey = answer.objectKey;
    }
    const thumbnailURL = await deps.api.uploadURL({ contentLength: thumbnail.size, contentMD5: thumbnail.md5 }, signal);
    const uploadingFrom = workBefore('uploading', bytes, hashesFirst);
    await worker.call('putFile', { target: put }, { onProgress: (sent) => control.setProgress(uploadingFrom + sent) });
    await worker.call('putThumbnail', { url: thumbnailURL.url });

    control.setStatus('finishing');
    const created = await deps.api.createFile(
      {
        collectionID: target.collectionID,
        encryptedKey: sealed.encryptedKey,
        keyDecryptionNonce: sealed.keyDecryptionNonce,
        file: { objectKey: fileObjectKey, decryptionHeader: encrypted.header, size: encrypted.size },
        thumbnail: { objectKey: thumbnailURL.objectKey, decryptionHeader: thumbnail.header, size: thumbnail.size },
        metadata: sealed.metadata,
        ...(sealed.pubMagicMetadata ? { pubMagicMetadata: sealed.pubMagicMetadata } : {}),
      },
      signal,
    );
    return { kind: 'uploaded', file: created };
  } finally {
    signal.removeEventListener('abort', cancel);
    await worker.call('dispose', undefined).catch(() => undefined);
    worker.terminate();
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
