// The upload as pages use it: `createPhotosUploader` gives a queue (queue.ts) whose files each run through the
// pipeline (pipeline.ts) in an upload worker, two at a time by default. The workers are pooled (worker-pool.ts):
// each serves file after file and the idle ones end when the queue has nothing left to do. Logout cancels every
// upload, ends the workers and removes the staged ciphertext (staging-sweep.ts, registered by the app shell); a
// new uploader also removes what a closed tab left staged.
import type { GalleryFile } from '../library/types.ts';
import { uploadOneFile, type PipelineDeps } from './pipeline.ts';
import { createUploadQueue, type UploadQueue } from './queue.ts';
import type { UploadProfileEntry } from './stage-times.ts';
import { cancelAtLogout } from './staging-sweep.ts';
import { clearUploadStaging } from './staging.ts';
import { photosUploadApi } from './upload-api.ts';
import { captureVideoFrame } from './video-frame.ts';
import { startUploadWorker } from './worker-client.ts';
import { createWorkerPool } from './worker-pool.ts';

export interface PhotosUploaderOptions {
  /** The library's files now, for the duplicate rule (the library's own list; this folder does not keep one). */
  existingFiles: () => readonly GalleryFile[];
  /** The signed-in user's id. */
  userID: () => number;
  /** Files uploaded at once whatever their size (each in a worker of the pool); 2 by default, at most 3. */
  concurrency?: number;
}

/**
 * More files at once while they are small: a small photo's time goes mostly to requests and to the browser's
 * decoder, not to this tab's workers, so two at a time left the cores idle between them.
 */
const SMALL_FILES = { files: 4, bytes: 32 * 1024 * 1024 };

const STAGING_SWEEP_DELAY_MS = 2000;

/** Where each file's stage times go when a profile is asked for: an array the photos-app bench (`--profile`) puts here. */
const profileSink = () =>
  (globalThis as { __entePhotosUploadProfile?: UploadProfileEntry[] }).__entePhotosUploadProfile;

export function createPhotosUploader({ existingFiles, userID, concurrency = 2 }: PhotosUploaderOptions): UploadQueue {
  const lanes = Math.min(3, Math.max(1, concurrency));
  const workers = createWorkerPool(startUploadWorker, Math.max(lanes, SMALL_FILES.files));
  const sink = profileSink();
  const deps: PipelineDeps = {
    api: photosUploadApi,
    workers,
    existingFiles,
    userID,
    captureVideoFrame,
    ...(Array.isArray(sink) ? { onProfile: (entry: UploadProfileEntry) => sink.push(entry) } : {}),
  };
  const queue = createUploadQueue({
    concurrency: lanes,
    small: SMALL_FILES,
    run: async (job, control) => {
      try {
        return await uploadOneFile(job, control, deps);
      } catch (error) {
        // A cancelled (ended) worker could not remove its staging file: sweep once its lock and handle are gone.
        setTimeout(() => void clearUploadStaging().catch(() => undefined), STAGING_SWEEP_DELAY_MS);
        throw error;
      }
    },
  });
  // Nothing left to do: the idle workers end (a later upload starts new ones).
  queue.onIdle(() => workers.endIdle());
  cancelAtLogout(() => {
    queue.cancelAll();
    workers.endIdle();
  });
  void clearUploadStaging().catch(() => undefined);
  return queue;
}

export { pairLivePhotos } from './live-photos.ts';
export type { UploadQueue, UploadQueueSnapshot, UploadItem } from './queue.ts';
export type { UploadInput, UploadOutcome, UploadTarget, UploadErrorReason, UploadStatus } from './types.ts';
export { UploadError } from './types.ts';
