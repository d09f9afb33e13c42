// The gallery's uploads: one upload queue per tab (upload/uploader.ts, its code fetched with the first
// upload), files sent to the album the page shows or to the user's "uncategorized" album, a folder to an album
// of its name (upload-groups.ts; the user's own album of that name when there is one, else a new one), and the
// library pulled again each time the queue has nothing left to do.
import { useCallback, useEffect, useState } from 'react';

import { log } from '@ente/shared/log.ts';
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';
import { savedUserID } from '@ente/shared/storage/user.ts';

import type { PickedFile } from '../components/layout/picked-files.ts';
import type { Album } from '../library/types.ts';
import type { Library } from '../library/use-library.ts';
import type { UploadQueue } from '../upload/uploader.ts';
import { uploadGroups } from './upload-groups.ts';

let tabQueue: Promise<UploadQueue> | undefined;
/** The library the queue's duplicate rule reads (the page's, which logout closes). */
let tabLibrary: Library | undefined;
const queueListeners = new Set<(queue: UploadQueue) => void>();

// Logout cancels the queue's files (uploader.ts); the next signed-in user gets a queue of their own.
registerInMemoryReset('photos-upload-queue', () => {
  tabQueue = undefined;
  tabLibrary = undefined;
});

function uploadQueue(): Promise<UploadQueue> {
  tabQueue ??= (async () => {
    const [{ createPhotosUploader }, userID] = await Promise.all([import('../upload/uploader.ts'), savedUserID()]);
    const queue = createPhotosUploader({
      existingFiles: () => tabLibrary?.snapshot().files ?? [],
      userID: () => userID ?? -1,
    });
    for (const listener of queueListeners) listener(queue);
    return queue;
  })();
  tabQueue.catch(() => (tabQueue = undefined));
  return tabQueue;
}

/** The user's own album named `name` (the first by id), or a new one. */
async function folderAlbum(library: Library, name: string): Promise<Album> {
  const own = (albums: readonly Album[]) =>
    albums
      .filter((album) => album.role === 'OWNER' && album.type === 'album' && album.name === name)
      .sort((a, b) => a.id - b.id)[0];
  const found = own(library.snapshot().albums);
  if (found) return found;
  const id = await library.createAlbum(name);
  const created = library.snapshot().albums.find((album) => album.id === id);
  if (!created) throw new Error('the new album is not in the library');
  return created;
}

export interface Uploads {
  /** The tab's queue once the first upload created it (for the upload panel). */
  queue: UploadQueue | undefined;
  /** Queues picked or dropped files: loose ones to `into` (else "uncategorized"), folders to albums. */
  upload: (picked: PickedFile[], into?: Album) => void;
}

export function useUploads(library: Library | undefined): Uploads {
  const [queue, setQueue] = useState<UploadQueue>();
  useEffect(() => {
    tabLibrary = library;
    // A queue of an earlier visit of the page is shown again; a new one is shown when it arrives.
    void tabQueue?.then(setQueue, () => undefined);
    queueListeners.add(setQueue);
    return () => {
      queueListeners.delete(setQueue);
    };
  }, [library]);

  const upload = useCallback(
    (picked: PickedFile[], into?: Album) => {
      if (!library || picked.length === 0) return;
      void (async () => {
        const queue = await uploadQueue();
        for (const group of uploadGroups(picked)) {
          const album = group.albumName
            ? await folderAlbum(library, group.albumName)
            : into && into.role !== 'VIEWER'
              ? into
              : await library.specialAlbum('uncategorized');
          queue.add(group.files, { collectionID: album.id, collectionKey: album.key });
        }
        await queue.whenIdle();
        await library.refresh();
      })().catch((error: unknown) => log.error('Could not start the upload', error));
    },
    [library],
  );
  return { queue, upload };
}
