// Progress in bytes of work. A file's work is one pass over its bytes per stage it goes through: hashing
// first (only when it may be a duplicate), encrypting (which hashes too), then sending the ciphertext. A
// queued file counts two passes; one that must hash first grows to three when it starts. A file that turns
// out a duplicate, or finishes, counts all of its total as done.
import type { UploadStatus } from './types.ts';

/** The total work of a file of `size` bytes: hash pass (maybe), encryption pass, upload of about as many bytes. */
export function fileWork(size: number, hashesFirst: boolean): number {
  return (hashesFirst ? 3 : 2) * Math.max(size, 1);
}

/** Work done before the stage `status` starts, for a file of `size` bytes. */
export function workBefore(status: UploadStatus, size: number, hashesFirst: boolean): number {
  const pass = Math.max(size, 1);
  const first = hashesFirst ? pass : 0;
  switch (status) {
    case 'queued':
    case 'hashing':
      return 0;
    case 'encrypting':
      return first;
    case 'uploading':
      return first + pass;
    default:
      return fileWork(size, hashesFirst);
  }
}

export interface Progress {
  done: number;
  total: number;
}

/**
 * The queue's overall progress: every file that is queued, running or finished counts; failed and cancelled
 * files count for nothing (a retry brings them back).
 */
export function overallProgress(items: readonly { status: UploadStatus; done: number; total: number }[]): Progress {
  let done = 0;
  let total = 0;
  for (const item of items) {
    if (item.status === 'failed' || item.status === 'cancelled') continue;
    total += item.total;
    done += item.status === 'done' ? item.total : Math.min(item.done, item.total);
  }
  return { done, total };
}
