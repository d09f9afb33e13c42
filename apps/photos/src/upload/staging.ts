// Where an object's ciphertext waits in the upload worker between its encryption and its PUTs: in memory when
// it is one part (or small enough), else in a file of the Origin Private File System under `STAGING_DIRECTORY`,
// written and read through a synchronous access handle (workers only). Ciphertext only, removed once the file
// is uploaded, failed or cancelled; what a closed tab leaves behind is removed by `clearUploadStaging` (the next
// queue) unless a live worker holds its Web Lock, and at logout by staging-sweep.ts.
import { MAX_MEMORY_STAGING_BYTES } from './plan.ts';
import { opfsRoot, STAGING_DIRECTORY, type StagingDirectory } from './staging-sweep.ts';

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

const lockManager = () => (typeof navigator === 'undefined' ? undefined : (navigator as { locks?: LockManager }).locks);

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
  // Held until the file is disposed or the worker ends: `clearUploadStaging` in another tab leaves this file
  // alone meanwhile.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  void lockManager()?.request(lockPrefix + name, () => held);
  const file = await directory.getFileHandle(name, { create: true });
  const handle = (await file.createSyncAccessHandle()) as SyncAccessHandle;
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
      // A worker serves file after file (worker-pool.ts): its locks must not outlive their files.
      release();
    },
  };
}

/**
 * Removes staged ciphertext that no live upload worker holds (what a closed tab left). Works on the main thread
 * and in workers; a browser without OPFS has nothing to remove.
 */
export async function clearUploadStaging(): Promise<void> {
  const root = await opfsRoot();
  if (!root) return;
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
