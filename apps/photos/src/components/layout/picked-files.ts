// What the person hands the app to upload, from the file pickers or a drop: each file with its path relative
// to what was chosen ("Trip/Day 1/IMG_1.jpg" for a folder, the bare name for a loose file), which the upload
// uses to make albums of folders. Directories of a drop are read recursively with the entry API
// (`DataTransferItem.webkitGetAsEntry`), the only way a page can see a dropped folder's content. Where the browser
// also gives file system handles for a drop (Chromium's `getAsFileSystemHandle`), each file's handle is kept in
// `fileHandles`, so that an upload interrupted by a reload can read the file again (upload/pending-uploads.ts).

/** A file to upload and where it sat in what was chosen (no leading slash; "/" between the parts). */
export interface PickedFile {
  file: File;
  relativePath: string;
}

/** The handle of a dropped file, where the browser gave one (see `pickedFromDrop`). */
export const fileHandles = new WeakMap<File, FileSystemFileHandle>();

/** The files of an `<input type="file">`, with `webkitdirectory` or not. */
export function pickedFromInput(files: FileList | readonly File[]): PickedFile[] {
  return Array.from(files, (file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

/** What a drop held: the files read, and how many entries (files or folders) could not be read. */
export interface PickedDrop {
  files: PickedFile[];
  unreadable: number;
}

/** A drop none of whose entries could be read (each removed meanwhile, without permission, a broken link). */
export class UnreadableDropError extends Error {
  constructor(readonly unreadable: number) {
    super(`none of the dropped items could be read (${unreadable})`);
  }
}

/**
 * The files of a drop, folders read recursively. The entries are taken at once: a DataTransfer's items are
 * emptied once the drop event's handler returns, so this must be called inside it (the reading itself goes on
 * afterwards). Without the entry API, the drop's loose files. An entry that cannot be read is left out and
 * counted, so that one unreadable file does not lose the folder; rejects (UnreadableDropError) only when
 * something was unreadable and nothing was read.
 */
export function pickedFromDrop(transfer: DataTransfer): Promise<PickedDrop> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  const handles: Promise<FileSystemHandle | null>[] = [];
  for (const item of Array.from(transfer.items)) {
    if (item.kind !== 'file') continue;
    // Asked for now, while the drop's items are readable; used once the files are read.
    const withHandle = item as DataTransferItem & { getAsFileSystemHandle?(): Promise<FileSystemHandle | null> };
    if (typeof withHandle.getAsFileSystemHandle === 'function') {
      handles.push(withHandle.getAsFileSystemHandle().catch(() => null));
    }
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  if (entries.length === 0 && loose.length === 0) {
    return Promise.resolve({ files: pickedFromInput(Array.from(transfer.files)), unreadable: 0 });
  }
  const read: EntryReading = { unreadable: 0 };
  return Promise.all(entries.map((entry) => readEntry(entry, read))).then(async (found) => {
    const files = [...found.flat(), ...pickedFromInput(loose)];
    if (files.length === 0 && read.unreadable > 0) throw new UnreadableDropError(read.unreadable);
    await keepHandles(files, handles).catch(() => undefined);
    return { files, unreadable: read.unreadable };
  });
}

/** Records in `fileHandles` the handle of each picked file found under the drop's handles by its relative path. */
async function keepHandles(picked: readonly PickedFile[], roots: Promise<FileSystemHandle | null>[]): Promise<void> {
  if (roots.length === 0) return;
  const byPath = new Map<string, FileSystemFileHandle>();
  const walk = async (handle: FileSystemHandle, path: string): Promise<void> => {
    if (handle.kind === 'file') {
      byPath.set(path, handle as FileSystemFileHandle);
      return;
    }
    const children = (handle as FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> }).values();
    for await (const child of children) await walk(child, `${path}/${child.name}`);
  };
  for (const root of await Promise.all(roots)) if (root) await walk(root, root.name);
  for (const { file, relativePath } of picked) {
    const handle = byPath.get(relativePath);
    if (handle) fileHandles.set(file, handle);
  }
}

/** The count of a drop's entries that could not be read, kept while its folders are read. */
interface EntryReading {
  unreadable: number;
}

/** The files under `entry`; one that cannot be read (or a folder whose listing fails) is counted in `read`. */
async function readEntry(entry: FileSystemEntry, read: EntryReading): Promise<PickedFile[]> {
  try {
    if (isFile(entry)) {
      const file = await new Promise<File>((resolve, reject) => entry.file(resolve, reject));
      return [{ file, relativePath: entry.fullPath.replace(/^\/+/, '') || file.name }];
    }
    if (isDirectory(entry)) {
      const children = await readAllEntries(entry.createReader());
      const found = await Promise.all(children.map((child) => readEntry(child, read)));
      return found.flat();
    }
  } catch {
    read.unreadable += 1;
  }
  return [];
}

/** A directory reader hands its entries in batches (100 in Chromium) until an empty one. */
async function readAllEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

function isFile(entry: FileSystemEntry): entry is FileSystemFileEntry {
  return entry.isFile;
}

function isDirectory(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory;
}
