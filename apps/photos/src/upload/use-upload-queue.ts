// The upload queue's snapshot in a React component (the upload panel): re-renders on every change of the
// queue, reading the immutable snapshot queue.ts keeps until the next change.
import { useSyncExternalStore } from 'react';

import type { UploadQueue, UploadQueueSnapshot } from './queue.ts';

export function useUploadQueue(queue: UploadQueue): UploadQueueSnapshot {
  return useSyncExternalStore(queue.subscribe, queue.snapshot, queue.snapshot);
}
