// The gallery's uploads: one upload queue per tab (upload/uploader.ts, its code fetched with the first
// upload), files sent to the album the page shows or to the user's "uncategorized" album, a folder to an album
// of its name (upload-groups.ts; the user's own album of that name when there is one, else a new one; folders
// inside folders as the person chooses), an image and a video of the same moment as one live photo, and the
// library pulled again each time the queue has nothing left to do. Each queued item is recorded
// (upload/pending-uploads.ts) until the server has it, so that after a reload the page offers to resume what a
// tab that is gone left: through the files' handles where the browser gave them, else by the person picking the
// same files again (matched by size and time, sent to the same album, the done ones skipped by the duplicate
// rule).
import { useCallback, useEffect, useState } from 'react';

import { log } from '@ente/shared/log.ts';
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';
import { savedUserID } from '@ente/shared/storage/user.ts';

import { fileHandles, type PickedFile } from '../components/layout/picked-files.ts';
import type { Album } from '../library/types.ts';
import type { Library } from '../library/use-library.ts';
import {
  addPendingUploads,
  continueRecords,
  deletePendingUploads,
  fileFromHandle,
  holdTabLock,
  leftBehind,
  listPendingUploads,
  liveTabIDs,
  markPendingUploadsDone,
  resumableByHandle,
  type NewPendingUpload,
  type PendingPart,
  type PendingUpload,
} from '../upload/pending-uploads.ts';
import { livePhotoPartsOf, type UploadInput } from '../upload/types.ts';
import type { UploadItem, UploadQueue } from '../upload/uploader.ts';
import { nestedFolderCount, uploadGroups, type FolderAlbums } from './upload-groups.ts';

let tabQueue: Promise<UploadQueue> | undefined;
/** The library the queue's duplicate rule reads (the page's, which logout closes). */
let tabLibrary: Library | undefined;
const queueListeners = new Set<(queue: UploadQueue) => void>();
/** This tab's id for its records, from its first upload (with the Web Lock that says it lives). */
let tabID: string | undefined;
/** The record of each queue item, and the items whose end was written. */
const recordOf = new Map<number, number>();
const recordEnded = new Set<number>();
/** What tabs that are gone left of this user's (done ones included), read when the page opens. */
let leftRecords: PendingUpload[] = [];
/** Bumped by logout: an upload being started or resumed across it stops instead of queueing into the old queue. */
let generation = 0;

// Logout cancels the queue's files (uploader.ts) and deletes the records (storage.ts); the next signed-in user
// gets a queue of their own.
registerInMemoryReset('photos-upload-queue', () => {
  generation += 1;
  tabQueue = undefined;
  tabLibrary = undefined;
  recordOf.clear();
  recordEnded.clear();
  leftRecords = [];
});

/**
 * Writes how recorded items ended: done ones marked, cancelled ones (and files of no supported type) forgotten. Called
 * with each item as it ends, and with every item once its records exist (an item may end before they are written).
 */
function writeEnds(items: readonly UploadItem[]): void {
  const done: number[] = [];
  const cancelled: number[] = [];
  for (const item of items) {
    const key = recordOf.get(item.id);
    if (key === undefined || recordEnded.has(item.id)) continue;
    if (item.status === 'done') done.push(key);
    else if (item.status === 'cancelled' || item.error?.reason === 'unsupported') cancelled.push(key);
    else continue;
    recordEnded.add(item.id);
  }
  if (done.length > 0) markPendingUploadsDone(done).catch((e: unknown) => log.warn('Could not record uploads', e));
  if (cancelled.length > 0) deletePendingUploads(cancelled).catch((e: unknown) => log.warn('Could not record', e));
}

function uploadQueue(): Promise<UploadQueue> {
  tabQueue ??= (async () => {
    const [{ createPhotosUploader }, userID] = await Promise.all([import('../upload/uploader.ts'), savedUserID()]);
    const queue = createPhotosUploader({
      existingFiles: () => tabLibrary?.snapshot().files ?? [],
      userID: () => userID ?? -1,
    });
    queue.onItemEnd((item) => writeEnds([item]));
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

const partOf = (file: File): PendingPart => {
  const handle = fileHandles.get(file);
  return { size: file.size, lastModified: file.lastModified, ...(handle ? { handle } : {}) };
};

/** Queues `inputs` for `album` and records them (the records of a gone tab they continue are replaced). */
async function queueRecorded(queue: UploadQueue, inputs: UploadInput[], album: Album, replacing: number[] = []) {
  const started = generation;
  const ids = queue.add(inputs, { collectionID: album.id, collectionKey: album.key });
  tabID ??= holdTabLock();
  const userID = (await savedUserID()) ?? -1;
  // Logged out meanwhile: nothing of the last user's is recorded.
  if (generation !== started) return;
  const records = inputs.map((input): NewPendingUpload => {
    const live = livePhotoPartsOf(input);
    const parts = live ? { file: partOf(live.image), video: partOf(live.video) } : { file: partOf(input as File) };
    return { tabID: tabID ?? '', userID, collectionID: album.id, ...parts, done: false };
  });
  try {
    if (replacing.length > 0) await deletePendingUploads(replacing);
    const keys = await addPendingUploads(records);
    ids.forEach((id, index) => {
      const key = keys[index];
      if (key !== undefined) recordOf.set(id, key);
    });
    writeEnds(queue.snapshot().items);
  } catch (e) {
    // Only the resumption after a reload is lost.
    log.warn('Could not record the upload', e);
  }
}

/** Once this tab's items are all done, its records go (failed ones stay, for a reload to offer them again). */
async function forgetFinished(): Promise<void> {
  const mine = (await listPendingUploads()).filter((record) => record.tabID === tabID);
  if (mine.every((record) => record.done)) await deletePendingUploads(mine.map((record) => record.key));
}

/** An album a record names that the user may still add to, else none. */
const recordAlbum = (library: Library, collectionID: number) =>
  library.snapshot().albums.find((album) => album.id === collectionID && takesUploads(album));

export interface NestedFoldersChoice {
  /** How many folders the picked folders hold. */
  folders: number;
  /** Goes on with the person's choice, or drops the upload (undefined). */
  choose: (mode: FolderAlbums | undefined) => void;
}

export interface LeftUploads {
  /** Files a tab that is gone did not finish. */
  count: number;
  /** Of them, those this browser can read again without the person picking them. */
  resumable: number;
  /** Queues the resumable ones again (call it from the person's click: reading a handle may ask permission). */
  resume: () => void;
  /** Forgets them all. */
  discard: () => void;
}

export interface Uploads {
  /** The tab's queue once the first upload created it (for the upload panel). */
  queue: UploadQueue | undefined;
  /**
   * Queues picked or dropped files: loose ones to `into` (else "uncategorized"), folders to albums. An album that
   * takes no uploads (`takesUploads`) takes nothing: the page refuses such a drop and says why.
   */
  upload: (picked: PickedFile[], into?: Album) => void;
  /** Set while the page must ask how nested folders become albums. */
  nestedChoice: NestedFoldersChoice | undefined;
  /** Set while an interrupted upload waits to be resumed or discarded. */
  left: LeftUploads | undefined;
  /**
   * Set when an upload or a resumption failed before its files were queued (an album that could not be
   * created, offline; a handle's permission refused): nothing went to the panel, so the page says so.
   */
  failed: { dismiss: () => void } | undefined;
}

/** Whether files can be uploaded into `album`: not into one shared with the person to view only. */
export const takesUploads = (album: Album): boolean => album.role !== 'VIEWER';

export function useUploads(library: Library | undefined): Uploads {
  const [queue, setQueue] = useState<UploadQueue>();
  const [nested, setNested] = useState<{ picked: PickedFile[]; into?: Album; folders: number }>();
  const [left, setLeft] = useState<{ count: number; resumable: number }>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    tabLibrary = library;
    // A queue of an earlier visit of the page is shown again; a new one is shown when it arrives.
    void tabQueue?.then(setQueue, () => undefined);
    queueListeners.add(setQueue);
    return () => {
      queueListeners.delete(setQueue);
    };
  }, [library]);

  const showLeft = useCallback(() => {
    const unfinished = leftRecords.filter((record) => !record.done);
    const resumable = unfinished.filter(resumableByHandle).length;
    setLeft(unfinished.length > 0 ? { count: unfinished.length, resumable } : undefined);
  }, []);

  useEffect(() => {
    if (!library) return;
    const page = { live: true };
    void (async () => {
      const [records, liveTabs, userID] = await Promise.all([listPendingUploads(), liveTabIDs(), savedUserID()]);
      if (!page.live) return;
      leftRecords = leftBehind(records, liveTabs, userID ?? -1).all;
      showLeft();
    })().catch((e: unknown) => log.warn('Could not read the interrupted uploads', e));
    return () => {
      page.live = false;
    };
  }, [library, showLeft]);

  const start = useCallback(
    (picked: PickedFile[], into: Album | undefined, mode: FolderAlbums) => {
      if (!library) return;
      const started = generation;
      const current = () => generation === started;
      void (async () => {
        const queue = await uploadQueue();
        const { pairLivePhotos } = await import('../upload/uploader.ts');
        if (!current()) return;
        const inputs = pairLivePhotos(picked);
        // Items a gone tab recorded go to the album it chose; the rest by the usual rules.
        const { continued, fresh, taken } = continueRecords(
          inputs,
          leftRecords,
          (collectionID) => recordAlbum(library, collectionID) !== undefined,
        );
        leftRecords = leftRecords.filter((record) => !taken.has(record.key));
        showLeft();
        for (const [collectionID, group] of continued) {
          const album = recordAlbum(library, collectionID);
          if (album && current()) await queueRecorded(queue, group.inputs, album, group.keys);
        }
        for (const group of uploadGroups(fresh, mode)) {
          const album = group.albumName
            ? await folderAlbum(library, group.albumName)
            : (into ?? (await library.specialAlbum('uncategorized')));
          // Logged out while the album was made: the rest is not queued (the queue was cancelled, the key is gone).
          if (!current()) return;
          await queueRecorded(queue, group.inputs, album);
        }
        await queue.whenIdle();
        if (!current()) return;
        await forgetFinished().catch((e: unknown) => log.warn('Could not clear the upload records', e));
        await library.refresh();
      })().catch((error: unknown) => {
        log.error('Could not start the upload', error);
        setFailed(true);
      });
    },
    [library, showLeft],
  );

  const upload = useCallback(
    (picked: PickedFile[], into?: Album) => {
      if (!library || picked.length === 0) return;
      if (into && !takesUploads(into)) {
        log.warn('Files for an album shared to view only were not uploaded');
        return;
      }
      const folders = nestedFolderCount(picked);
      if (folders > 0) setNested({ picked, into, folders });
      else start(picked, into, 'tree');
    },
    [library, start],
  );

  const resume = useCallback(() => {
    if (!library) return;
    const records = leftRecords.filter((record) => !record.done && resumableByHandle(record));
    leftRecords = leftRecords.filter((record) => !records.includes(record));
    showLeft();
    const started = generation;
    void (async () => {
      const queue = await uploadQueue();
      for (const record of records) {
        const album = recordAlbum(library, record.collectionID) ?? (await library.specialAlbum('uncategorized'));
        const file = await fileFromHandle(record.file.handle as FileSystemFileHandle);
        const video = record.video?.handle ? await fileFromHandle(record.video.handle) : undefined;
        if (generation !== started) return;
        fileHandles.set(file, record.file.handle as FileSystemFileHandle);
        if (video && record.video?.handle) fileHandles.set(video, record.video.handle);
        await queueRecorded(queue, [video ? { image: file, video } : file], album, [record.key]);
      }
      await queue.whenIdle();
      if (generation !== started) return;
      await forgetFinished().catch((e: unknown) => log.warn('Could not clear the upload records', e));
      await library.refresh();
    })().catch((error: unknown) => {
      log.error('Could not resume the upload', error);
      setFailed(true);
    });
  }, [library, showLeft]);

  const discard = useCallback(() => {
    const keys = leftRecords.map((record) => record.key);
    leftRecords = [];
    setLeft(undefined);
    deletePendingUploads(keys).catch((e: unknown) => log.warn('Could not clear the upload records', e));
  }, []);

  const nestedChoice: NestedFoldersChoice | undefined = nested && {
    folders: nested.folders,
    choose: (mode) => {
      setNested(undefined);
      if (mode) start(nested.picked, nested.into, mode);
    },
  };
  return {
    queue,
    upload,
    nestedChoice,
    left: left && { ...left, resume, discard },
    failed: failed ? { dismiss: () => setFailed(false) } : undefined,
  };
}
