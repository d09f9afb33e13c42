// The gallery's upload hook when an upload fails before its files reach the queue (the album for them could not
// be had, offline): the page is told (`failed`), not only the log. The queue and the records are stand-ins.
import { act, renderHook, waitFor } from '@testing-library/react';

import type { Library } from '../library/use-library.ts';
import { useUploads } from './use-uploads.ts';

jest.mock('@ente/shared/storage/user.ts', () => ({ savedUserID: () => Promise.resolve(1) }));
jest.mock('../upload/uploader.ts', () => ({
  createPhotosUploader: () => ({
    subscribe: () => () => undefined,
    snapshot: () => ({ items: [] }),
    add: () => [],
    whenIdle: () => Promise.resolve(),
  }),
  pairLivePhotos: (picked: Array<{ file: File }>) => picked.map((each) => each.file),
}));
jest.mock('../upload/pending-uploads.ts', () => ({
  listPendingUploads: () => Promise.resolve([]),
  liveTabIDs: () => Promise.resolve([]),
  leftBehind: () => ({ all: [] }),
  continueRecords: (inputs: unknown[]) => ({ continued: new Map(), fresh: inputs, taken: new Set() }),
  addPendingUploads: () => Promise.resolve([]),
  deletePendingUploads: () => Promise.resolve(),
  markPendingUploadsDone: () => Promise.resolve(),
  holdTabLock: () => 'tab',
  resumableByHandle: () => false,
}));

test('an upload whose album cannot be had (offline) is reported to the page, and can be dismissed', async () => {
  const library = {
    snapshot: () => ({ albums: [], files: [] }),
    specialAlbum: () => Promise.reject(new Error('offline')),
    refresh: () => Promise.resolve(),
  } as unknown as Library;
  const { result } = renderHook(() => useUploads(library));
  expect(result.current.failed).toBeUndefined();
  act(() => result.current.upload([{ file: new File(['x'], 'a.jpg'), relativePath: 'a.jpg' }]));
  await waitFor(() => expect(result.current.failed).toBeDefined());
  act(() => result.current.failed?.dismiss());
  expect(result.current.failed).toBeUndefined();
});
