import { pickedFromDrop, pickedFromInput, UnreadableDropError } from './picked-files.ts';

// The entry API as browsers hand it for a drop: directories read in batches until an empty one.
function fileEntry(path: string, content = 'x'): FileSystemFileEntry {
  const name = path.split('/').pop() ?? path;
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath: `/${path}`,
    file: (resolve: (file: File) => void) => resolve(new File([content], name)),
  } as unknown as FileSystemFileEntry;
}

function directoryEntry(path: string, children: FileSystemEntry[], batchSize = 2): FileSystemDirectoryEntry {
  return {
    isFile: false,
    isDirectory: true,
    name: path.split('/').pop(),
    fullPath: `/${path}`,
    createReader: () => {
      let offset = 0;
      return {
        readEntries: (resolve: (entries: FileSystemEntry[]) => void) => {
          const batch = children.slice(offset, offset + batchSize);
          offset += batch.length;
          setTimeout(() => resolve(batch));
        },
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}

function transferOf(items: Array<{ entry?: FileSystemEntry | null; file?: File }>, files: File[] = []): DataTransfer {
  return {
    items: items.map(({ entry, file }) => ({
      kind: 'file',
      webkitGetAsEntry: () => entry ?? null,
      getAsFile: () => file ?? null,
    })),
    files,
  } as unknown as DataTransfer;
}

const paths = (picked: Array<{ relativePath: string }>) => picked.map((p) => p.relativePath).sort();

test('a dropped folder is read recursively, every batch of every directory, with paths relative to the drop', async () => {
  const tree = directoryEntry('Trip', [
    fileEntry('Trip/a.jpg'),
    fileEntry('Trip/b.jpg'),
    fileEntry('Trip/c.mp4'),
    directoryEntry('Trip/Day 2', [fileEntry('Trip/Day 2/d.heic'), directoryEntry('Trip/Day 2/empty', [])]),
  ]);
  const { files: picked, unreadable } = await pickedFromDrop(
    transferOf([{ entry: tree }, { entry: fileEntry('loose.png') }]),
  );
  expect(unreadable).toBe(0);
  expect(paths(picked)).toEqual(['Trip/Day 2/d.heic', 'Trip/a.jpg', 'Trip/b.jpg', 'Trip/c.mp4', 'loose.png']);
  expect(picked.every((p) => p.file instanceof File)).toBe(true);
  expect(picked.find((p) => p.relativePath === 'Trip/c.mp4')?.file.name).toBe('c.mp4');
});

/** A file entry whose `file()` fails, as for a file removed meanwhile or without permission. */
function unreadableEntry(path: string): FileSystemFileEntry {
  return Object.assign(fileEntry(path), {
    file: (_resolve: unknown, reject: (error: Error) => void) => reject(new Error('NotReadableError')),
  });
}

/** A directory entry whose listing fails. */
function unlistableEntry(path: string): FileSystemDirectoryEntry {
  return Object.assign(directoryEntry(path, []), {
    createReader: () => ({
      readEntries: (_resolve: unknown, reject: (error: Error) => void) => reject(new Error('NotFoundError')),
    }),
  });
}

test('unreadable entries of a dropped folder are left out and counted; the readable ones still come', async () => {
  const tree = directoryEntry('Trip', [
    fileEntry('Trip/a.jpg'),
    unreadableEntry('Trip/locked.jpg'),
    unlistableEntry('Trip/gone'),
    directoryEntry('Trip/Day 2', [fileEntry('Trip/Day 2/b.jpg'), unreadableEntry('Trip/Day 2/link.jpg')]),
  ]);
  const { files, unreadable } = await pickedFromDrop(transferOf([{ entry: tree }]));
  expect(paths(files)).toEqual(['Trip/Day 2/b.jpg', 'Trip/a.jpg']);
  expect(unreadable).toBe(3);
});

test('a drop of which nothing could be read rejects, saying how many entries failed', async () => {
  const drop = pickedFromDrop(transferOf([{ entry: unreadableEntry('a.jpg') }, { entry: unlistableEntry('Gone') }]));
  await expect(drop).rejects.toBeInstanceOf(UnreadableDropError);
  await expect(drop).rejects.toMatchObject({ unreadable: 2 });
  // An empty folder is no failure: nothing to upload, nothing to say.
  expect(await pickedFromDrop(transferOf([{ entry: directoryEntry('Empty', []) }]))).toEqual({
    files: [],
    unreadable: 0,
  });
});

test('without the entry API, the dropped files come as loose files', async () => {
  const file = new File(['x'], 'photo.jpg');
  expect(paths((await pickedFromDrop(transferOf([{ file }]))).files)).toEqual(['photo.jpg']);
  expect(paths((await pickedFromDrop(transferOf([], [file]))).files)).toEqual(['photo.jpg']);
});

test('a picker hands the relative path of a folder pick, the name of a file pick', () => {
  const inFolder = new File(['x'], 'a.jpg');
  Object.defineProperty(inFolder, 'webkitRelativePath', { value: 'Album/a.jpg' });
  const loose = new File(['x'], 'b.jpg');
  expect(paths(pickedFromInput([inFolder, loose]))).toEqual(['Album/a.jpg', 'b.jpg']);
});
