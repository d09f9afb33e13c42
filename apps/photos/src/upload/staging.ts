// Where an object's ciphertext waits in the upload worker between its encryption and its PUTs: in memory when
// it is one part (or small enough), else in a file of the Origin Private File System under `STAGING_DIRECTORY`,
// written and read through a synchronous access handle (workers only). Ciphertext only, removed once the file
// is uploaded, failed or cancelled; what a closed tab leaves behind is removed by `clearUploadStaging` (logout,
// and the next queue) unless a live worker holds its Web Lock.
import { MAX_MEMORY_STAGING_BYTES } from './plan.ts';

export const STAGING_DIRECTORY = 'ente-upload-staging';
const lockPrefix = `${STAGING_DIRECTORY}/`;

export interface Staging {
  write(bytes: Uint8Array): void;
  /** `length` bytes from `offset`, as a buffer of their own (a fetch body). */
  read(offset: number, length: number): Uint8Array<ArrayBuffer>;
  readonly size: number;
  dispose(): Promise<void>;
}

/** Ciphertext in the worker's memory, up to `capacity` bytes. */
export function memoryStaging(capacity: number): Staging {
  if (capacity > MAX_MEMORY_STAGING_BYTES && capacity > 0) {
    throw new RangeError('too large to stage in memory');
  }
  let buffer: Uint8Array<ArrayBuffer> | undefined = new Uint8Array(capacity);
  let size = 0;
  const live = () => {
    if (!buffer) throw new Error('staging disposed');
    return buffer;
  };
  return {
    write(bytes) {
      live().set(bytes, size);
      size += bytes.length;
    },
    read(offset, length) {
      return live().slice(offset, offset + length);
    },
    get size() {
      return size;
    },
    dispose() {
      buffer = undefined;
      return Promise.resolve();
    },
  };
}

// The OPFS API of workers, which TypeScript's DOM library does not describe.
interface SyncAccessHandle {
  write(buffer: Uint8Array, options: { at: number }): number;
  read(buffer: Uint8Array, options: { at: number }): number;
  flush(): void;
  close(): void;
}
interface StagingFileHandle {
  createSyncAccessHandle(): Promise<SyncAccessHandle>;
}
interface StagingDirectory {
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<StagingDirectory>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<StagingFileHandle>;
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>;
  keys(): AsyncIterable<string>;
}

// Absent in insecure contexts and older browsers, whatever the DOM types say.
const storageManager = () =>
  typeof navigator === 'undefined' ? undefined : (navigator as { storage?: StorageManager }).storage;
const lockManager = () => (typeof navigator === 'undefined' ? undefined : (navigator as { locks?: LockManager }).locks);

async function opfsRoot(): Promise<StagingDirectory | undefined> {
  const storage = storageManager();
  if (typeof storage?.getDirectory !== 'function') return undefined;
  try {
    return (await storage.getDirectory()) as unknown as StagingDirectory;
  } catch {
    // Private windows of some browsers refuse it.
    return undefined;
  }
}

/** True when this worker can stage in OPFS (a directory and synchronous access handles). */
export async function opfsAvailable(): Promise<boolean> {
  const root = await opfsRoot();
  return (
    root !== undefined &&
    typeof FileSystemFileHandle !== 'undefined' &&
    'createSyncAccessHandle' in FileSystemFileHandle.prototype
  );
}

/** A staging file of its own in OPFS, held under a Web Lock for as long as this worker lives. */
export async function opfsStaging(): Promise<Staging> {
  const root = await opfsRoot();
  if (!root) throw new Error('no OPFS');
  const directory = await root.getDirectoryHandle(STAGING_DIRECTORY, { create: true });
  const name = crypto.randomUUID();
  // Held until the worker ends: `clearUploadStaging` in another tab leaves this file alone meanwhile.
  void lockManager()?.request(lockPrefix + name, () => new Promise<never>(() => undefined));
  const handle = await (await directory.getFileHandle(name, { create: true })).createSyncAccessHandle();
  let size = 0;
  let open = true;
  return {
    write(bytes) {
      let at = 0;
      while (at < bytes.length) at += handle.write(bytes.subarray(at), { at: size + at });
      size += bytes.length;
    },
    read(offset, length) {
      const buffer = new Uint8Array(length);
      let at = 0;
      while (at < length) {
        const read = handle.read(buffer.subarray(at), { at: offset + at });
        if (read === 0) throw new Error('staging file shorter than written');
        at += read;
      }
      return buffer;
    },
    get size() {
      return size;
    },
    async dispose() {
      if (!open) return;
      open = false;
      handle.close();
      await directory.removeEntry(name).catch(() => undefined);
    },
  };
}

/**
 * Removes staged ciphertext that no live upload worker holds; with `all` (logout, after every worker was
 * ended) the whole staging directory, retried briefly while the ended workers' handles close. Works on the main
 * thread and in workers; a browser without OPFS has nothing to remove.
 */
export async function clearUploadStaging({ all = false }: { all?: boolean } = {}): Promise<void> {
  const root = await opfsRoot();
  if (!root) return;
  if (all) {
    for (let attempt = 0; ; attempt++) {
      try {
        await root.removeEntry(STAGING_DIRECTORY, { recursive: true });
        return;
      } catch (e) {
        if ((e as { name?: string }).name === 'NotFoundError' || attempt >= 5) return;
        await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
      }
    }
  }
  let directory: StagingDirectory;
  try {
    directory = await root.getDirectoryHandle(STAGING_DIRECTORY);
  } catch {
    return;
  }
  const locks = await lockManager()?.query();
  const held = new Set((locks?.held ?? []).map((lock) => lock.name ?? ''));
  for await (const name of directory.keys()) {
    if (held.has(lockPrefix + name)) continue;
    await directory.removeEntry(name).catch(() => undefined);
  }
}
