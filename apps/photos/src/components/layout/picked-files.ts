// What the person hands the app to upload, from the file pickers or a drop: each file with its path relative
// to what was chosen ("Trip/Day 1/IMG_1.jpg" for a folder, the bare name for a loose file), which the upload
// uses to make albums of folders. Directories of a drop are read recursively with the entry API
// (`DataTransferItem.webkitGetAsEntry`), the only way a page can see a dropped folder's content.

/** A file to upload and where it sat in what was chosen (no leading slash; "/" between the parts). */
export interface PickedFile {
  file: File;
  relativePath: string;
}

/** The files of an `<input type="file">`, with `webkitdirectory` or not. */
export function pickedFromInput(files: FileList | readonly File[]): PickedFile[] {
  return Array.from(files, (file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

/**
 * The files of a drop, folders read recursively. The entries are taken at once: a DataTransfer's items are
 * emptied once the drop event's handler returns, so this must be called inside it (the reading itself goes on
 * afterwards). Without the entry API, the drop's loose files.
 */
export function pickedFromDrop(transfer: DataTransfer): Promise<PickedFile[]> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(transfer.items)) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else {
      const file = item.getAsFile();
      if (file) loose.push(file);
    }
  }
  if (entries.length === 0 && loose.length === 0) return Promise.resolve(pickedFromInput(Array.from(transfer.files)));
  return Promise.all(entries.map(readEntry)).then((found) => [...found.flat(), ...pickedFromInput(loose)]);
}

async function readEntry(entry: FileSystemEntry): Promise<PickedFile[]> {
  if (isFile(entry)) {
    const file = await new Promise<File>((resolve, reject) => entry.file(resolve, reject));
    return [{ file, relativePath: entry.fullPath.replace(/^\/+/, '') || file.name }];
  }
  if (isDirectory(entry)) {
    const children = await readAllEntries(entry.createReader());
    const found = await Promise.all(children.map(readEntry));
    return found.flat();
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
