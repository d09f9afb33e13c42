// useUploadQueue (use-upload-queue.ts): a component sees the queue's snapshot and re-renders on its changes.
import { act, renderHook } from '@testing-library/react';

import { createUploadQueue } from './queue.ts';
import type { UploadOutcome } from './types.ts';
import { useUploadQueue } from './use-upload-queue.ts';

test('follows the queue', async () => {
  let finish: (outcome: UploadOutcome) => void = () => undefined;
  const queue = createUploadQueue({ run: () => new Promise((resolve) => (finish = resolve)) });
  const { result } = renderHook(() => useUploadQueue(queue));
  expect(result.current.items).toEqual([]);
  act(() => void queue.add([new File(['x'], 'a.jpg')], { collectionID: 1, collectionKey: 'k' }));
  expect(result.current.items.map((item) => item.status)).toEqual(['encrypting']);
  expect(result.current.pending).toBe(1);
  await act(() => {
    finish({ kind: 'skipped', existingFileID: 3 });
    return Promise.resolve();
  });
  expect(result.current.items.map((item) => item.status)).toEqual(['done']);
  expect(result.current.progress.done).toBe(result.current.progress.total);
});
