// What lets an upload survive a reload (docs/decisions.md#the-photos-app): one small record per queued item in
// the `ente-photos-uploads` database (apps/photos/src/storage.ts, cleared by logout), removed when the person
// cancels it and marked done once the server has it. A record holds the album's id, each part's size and time,
// and the browser's file handle where it gave one (a drop in Chromium): never a key, never file content, never a
// file name in our own fields. A tab holds a Web Lock named after it while it lives, so the records of a tab that
// is gone (reloaded, closed) are told from those of a tab still uploading them. Each operation opens the
// database and closes it again, so logout's deletion is never blocked by a connection left open.
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { photosPendingUploadsDB } from '../storage.ts';
import { livePhotoPartsOf, type UploadInput } from './types.ts';

const PENDING_UPLOADS_DATABASE = photosPendingUploadsDB.database;
const STORE = 'pending';
const TAB_LOCK_PREFIX = 'ente-photos-upload-tab-';

/** One file of an item as it was picked: what matches it again after a reload, and its handle if any. */
export interface PendingPart {
  size: number;
  lastModified: number;
  handle?: FileSystemFileHandle;
}

export interface PendingUpload {
  /** The record's key (given by the database). */
  key: number;
  /** The tab that queued it (its Web Lock says whether it still lives). */
  tabID: string;
  userID: number;
  collectionID: number;
  /** The file, or a live photo's image. */
  file: PendingPart;
  /** A live photo's video. */
  video?: PendingPart;
  /** The server has it (uploaded, skipped or added): kept until the rest is done, so a file picked again goes to the same album. */
  done: boolean;
}

export type NewPendingUpload = Omit<PendingUpload, 'key'>;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Whether a user is signed in on this browser (no local storage: a worker or Node, which never log out). */
const signedIn = () => typeof localStorage === 'undefined' || savedUser()?.id !== undefined;

async function withStore<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => Promise<T>): Promise<T> {
  const open = indexedDB.open(PENDING_UPLOADS_DATABASE, 1);
  open.onupgradeneeded = () => {
    // The database is made only for a signed-in user: an operation that outlived logout (which deleted it) must
    // not create it again with the last user's records. Aborting the upgrade leaves no database behind.
    if (!signedIn()) {
      open.transaction?.abort();
      return;
    }
    open.result.createObjectStore(STORE, { keyPath: 'key', autoIncrement: true });
  };
  const db = await request(open);
  try {
    const transaction = db.transaction(STORE, mode);
    const done = new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
    });
    const result = await work(transaction.objectStore(STORE));
    await done;
    return result;
  } finally {
    db.close();
  }
}

/** Records new items; answers their keys in order. */
export function addPendingUploads(records: readonly NewPendingUpload[]): Promise<number[]> {
  return withStore('readwrite', (store) =>
    Promise.all(records.map(async (record) => Number(await request(store.add(record))))),
  );
}

export function listPendingUploads(): Promise<PendingUpload[]> {
  return withStore('readonly', (store) => request(store.getAll() as IDBRequest<PendingUpload[]>));
}

/** Marks items done (the server has them). */
export function markPendingUploadsDone(keys: readonly number[]): Promise<void> {
  return withStore('readwrite', async (store) => {
    for (const key of keys) {
      const record = (await request(store.get(key))) as PendingUpload | undefined;
      if (record) await request(store.put({ ...record, done: true }));
    }
  });
}

export function deletePendingUploads(keys: readonly number[]): Promise<void> {
  return withStore('readwrite', async (store) => {
    for (const key of keys) await request(store.delete(key));
  });
}

/** Hands records to another tab (this one, when it resumes them). */
export function movePendingUploads(keys: readonly number[], tabID: string): Promise<void> {
  return withStore('readwrite', async (store) => {
    for (const key of keys) {
      const record = (await request(store.get(key))) as PendingUpload | undefined;
      if (record) await request(store.put({ ...record, tabID }));
    }
  });
}

// Not in every browser a person may still use (Safari before 15.4).
const webLocks = () => (navigator as { locks?: LockManager }).locks;

/** This tab's id, and a Web Lock held under it for as long as the tab lives. */
export function holdTabLock(): string {
  const tabID = crypto.randomUUID();
  void webLocks()?.request(TAB_LOCK_PREFIX + tabID, () => new Promise<never>(() => undefined));
  return tabID;
}

/** The ids of the tabs alive now (their locks held); empty without Web Locks. */
export async function liveTabIDs(): Promise<Set<string>> {
  const held = (await webLocks()?.query())?.held ?? [];
  return new Set(
    held.flatMap(({ name }) =>
      name !== undefined && name.startsWith(TAB_LOCK_PREFIX) ? [name.slice(TAB_LOCK_PREFIX.length)] : [],
    ),
  );
}

/** What a tab that is gone left of this user's: the records of tabs not alive, grouped by whether any is unfinished. */
export function leftBehind(records: readonly PendingUpload[], liveTabs: ReadonlySet<string>, userID: number) {
  const orphans = records.filter((record) => record.userID === userID && !liveTabs.has(record.tabID));
  return { unfinished: orphans.filter((record) => !record.done), all: orphans };
}

/** Whether every part of a record has a handle (it resumes without picking the files again). */
export const resumableByHandle = (record: PendingUpload): boolean =>
  record.file.handle !== undefined && (record.video === undefined || record.video.handle !== undefined);

const sameFile = (part: PendingPart | undefined, file: File | undefined) =>
  part !== undefined && file !== undefined && part.size === file.size && part.lastModified === file.lastModified;

/**
 * The record an item picked again continues (same size and time of each part; a live photo only a live photo's),
 * from `records`, skipping those in `taken`.
 */
export function matchPendingUpload(
  records: readonly PendingUpload[],
  input: UploadInput,
  taken: ReadonlySet<number>,
): PendingUpload | undefined {
  const live = livePhotoPartsOf(input);
  const file = live ? live.image : (input as File);
  return records.find(
    (record) =>
      !taken.has(record.key) &&
      sameFile(record.file, file) &&
      (live ? sameFile(record.video, live.video) : record.video === undefined),
  );
}

/** Picked items split by whether they continue a record: those per album of their record, and the rest. */
export interface ContinuedItems<T> {
  /** By album id: the items and the keys of the records they replace. */
  continued: Map<number, { inputs: UploadInput[]; keys: number[] }>;
  fresh: T[];
  /** The keys of the records continued. */
  taken: Set<number>;
}

/**
 * Which picked items continue a record of `records` (matched by `matchPendingUpload`, each record once) whose album
 * `mayAddTo` still; the others are fresh uploads.
 */
export function continueRecords<T extends { input: UploadInput }>(
  items: readonly T[],
  records: readonly PendingUpload[],
  mayAddTo: (collectionID: number) => boolean,
): ContinuedItems<T> {
  const taken = new Set<number>();
  const continued = new Map<number, { inputs: UploadInput[]; keys: number[] }>();
  const fresh: T[] = [];
  for (const item of items) {
    const record = matchPendingUpload(records, item.input, taken);
    if (!record || !mayAddTo(record.collectionID)) {
      fresh.push(item);
      continue;
    }
    taken.add(record.key);
    const group = continued.get(record.collectionID) ?? { inputs: [], keys: [] };
    group.inputs.push(item.input);
    group.keys.push(record.key);
    continued.set(record.collectionID, group);
  }
  return { continued, fresh, taken };
}

/** The part of a record as `File`, read again through its handle (asking the person's permission). */
export async function fileFromHandle(handle: FileSystemFileHandle): Promise<File> {
  const withPermission = handle as FileSystemFileHandle & {
    queryPermission?(options: { mode: 'read' }): Promise<PermissionState>;
    requestPermission?(options: { mode: 'read' }): Promise<PermissionState>;
  };
  if ((await withPermission.queryPermission?.({ mode: 'read' })) !== 'granted') {
    const answer = await withPermission.requestPermission?.({ mode: 'read' });
    if (answer !== undefined && answer !== 'granted') throw new Error('no permission to read the file');
  }
  return handle.getFile();
}
