// The gallery's upload hook when an upload fails before its files reach the queue (the album for them could not
// be had, offline): the page is told (`failed`), not only the log. The queue and the records are stand-ins.
import { act, renderHook, waitFor } from '@testing-library/react';

import { resetInMemoryState } from '@ente/shared/storage/in-memory.ts';

import type { Album } from '../library/types.ts';
import type { Library } from '../library/use-library.ts';
import { takesUploads, useUploads } from './use-uploads.ts';

jest.mock('@ente/shared/storage/user.ts', () => ({ savedUserID: () => Promise.resolve(1) }));
const queueAdd = jest.fn(() => [1]);
jest.mock('../upload/uploader.ts', () => ({
  createPhotosUploader: () => ({
    onItemEnd: () => () => undefined,
    snapshot: () => ({ items: [] }),
    add: queueAdd,
    whenIdle: () => Promise.resolve(),
  }),
  pairLivePhotos: (picked: Array<{ file: File; relativePath: string }>) =>
    picked.map(({ file, relativePath }) => ({ input: file, relativePath })),
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

/** A library whose "uncategorized" album comes from `specialAlbum`, and the hook over it. */
function hookWith(specialAlbum: () => Promise<unknown>) {
  const library = { snapshot: () => ({ albums: [], files: [] }), specialAlbum, refresh: () => Promise.resolve() };
  return renderHook(() => useUploads(library as unknown as Library));
}

const onePhoto = () => [{ file: new File(['x'], 'a.jpg'), relativePath: 'a.jpg' }];

test('an upload whose album cannot be had (offline) is reported to the page, and can be dismissed', async () => {
  const specialAlbum = jest.fn(() => Promise.reject(new Error('offline')));
  const { result } = hookWith(specialAlbum);
  expect(result.current.failed).toBeUndefined();
  act(() => result.current.upload(onePhoto()));
  await waitFor(() => expect(result.current.failed).toBeDefined());
  expect(specialAlbum).toHaveBeenCalledTimes(1);
  act(() => result.current.failed?.dismiss());
  expect(result.current.failed).toBeUndefined();
});

test('logout while the upload waits for its album: nothing is queued into the old queue afterwards', async () => {
  let giveAlbum: (album: unknown) => void = () => undefined;
  const specialAlbum = jest.fn(() => new Promise((resolve) => (giveAlbum = resolve)));
  const { result } = hookWith(specialAlbum);
  act(() => result.current.upload(onePhoto()));
  await waitFor(() => expect(specialAlbum).toHaveBeenCalled());
  await resetInMemoryState();
  giveAlbum({ id: 5, key: 'k', role: 'OWNER', type: 'uncategorized' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(queueAdd).not.toHaveBeenCalled();
  expect(result.current.failed).toBeUndefined();
});

test('files for an album shared to view only are not uploaded, neither there nor to "uncategorized"', async () => {
  const specialAlbum = jest.fn(() => Promise.resolve({ id: 5, key: 'k', role: 'OWNER', type: 'uncategorized' }));
  const { result } = hookWith(specialAlbum);
  const viewOnly = { id: 9, key: 'k9', role: 'VIEWER', type: 'album', name: 'Trip' } as unknown as Album;
  expect(takesUploads(viewOnly)).toBe(false);
  act(() => result.current.upload(onePhoto(), viewOnly));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(specialAlbum).not.toHaveBeenCalled();
  expect(queueAdd).not.toHaveBeenCalled();
  expect(result.current.failed).toBeUndefined();
  // One the person collaborates on takes them.
  expect(takesUploads({ ...viewOnly, role: 'COLLABORATOR' })).toBe(true);
});
