// The upload as pages use it: `createPhotosUploader` gives a queue (queue.ts) whose files each run through the
// pipeline (pipeline.ts) in an upload worker of their own, two at a time by default. Logout cancels every
// upload and removes the staged ciphertext (OPFS, which the storage registry cannot declare yet), through the
// shell's in-memory reset hook, registered when this module loads; a new uploader also removes what a closed tab
// left staged.
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';

import type { GalleryFile } from '../library/types.ts';
import { uploadOneFile } from './pipeline.ts';
import { createUploadQueue, type UploadQueue } from './queue.ts';
import { clearUploadStaging } from './staging.ts';
import { photosUploadApi } from './upload-api.ts';
import { captureVideoFrame } from './video-frame.ts';
import { startUploadWorker } from './worker-client.ts';

export interface PhotosUploaderOptions {
  /** The library's files now, for the duplicate rule (the library's own list; this folder does not keep one). */
  existingFiles: () => readonly GalleryFile[];
  /** The signed-in user's id. */
  userID: () => number;
  /** Files uploaded at once (each in its own worker); 2 by default, at most 3. */
  concurrency?: number;
}

const liveQueues = new Set<UploadQueue>();
const STAGING_SWEEP_DELAY_MS = 2000;

export function createPhotosUploader({ existingFiles, userID, concurrency = 2 }: PhotosUploaderOptions): UploadQueue {
  const deps = { api: photosUploadApi, startWorker: startUploadWorker, existingFiles, userID, captureVideoFrame };
  const queue = createUploadQueue({
    concurrency: Math.min(3, Math.max(1, concurrency)),
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
  liveQueues.add(queue);
  void clearUploadStaging().catch(() => undefined);
  return queue;
}

// Registered when this module loads (with the page that offers uploads), not only once an uploader exists, so
// that a logout also removes what a closed tab left staged.
registerInMemoryReset('photos-upload', async () => {
  for (const live of liveQueues) live.cancelAll();
  liveQueues.clear();
  await clearUploadStaging({ all: true });
});

export { pairLivePhotos } from './live-photos.ts';
export type { UploadQueue, UploadQueueSnapshot, UploadItem } from './queue.ts';
export type { UploadInput, UploadOutcome, UploadTarget, UploadErrorReason, UploadStatus } from './types.ts';
export { UploadError } from './types.ts';
