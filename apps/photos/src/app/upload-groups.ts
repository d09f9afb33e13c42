// Which album each picked or dropped item goes to: a folder becomes an album of its name, a loose file goes to
// the page's default album. A folder holding folders becomes, as the person chooses, one album for the whole
// tree (its top folder's: "Trip/Day 1/a.jpg" and "Trip/b.jpg" both go to "Trip") or one album per folder (each
// file to the album of the folder it sits in: "Day 1" and "Trip"). Items are files or live photos already paired
// (upload/live-photos.ts), each with the path of its file (a live photo's image's).
import type { UploadInput } from '../upload/types.ts';

/** How nested folders become albums. */
export type FolderAlbums = 'tree' | 'perFolder';

/** What grouping needs of an item: it and where it sat ("Trip/Day 1/IMG_1.jpg", a loose file its name). */
export interface PathedInput {
  input: UploadInput;
  relativePath: string;
}

/** Items bound for one album: `albumName` for a folder's, none for the default album. */
export interface UploadGroup {
  albumName?: string;
  inputs: UploadInput[];
}

const folders = (relativePath: string) =>
  relativePath
    .split('/')
    .slice(0, -1)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);

/** The number of folders inside the picked folders (0: nothing to choose). */
export function nestedFolderCount(picked: readonly { relativePath: string }[]): number {
  const nested = new Set<string>();
  for (const { relativePath } of picked) {
    const path = folders(relativePath);
    for (let depth = 2; depth <= path.length; depth++) nested.add(path.slice(0, depth).join('/'));
  }
  return nested.size;
}

/** The groups in the order their first item came; the default album's (loose files) first. */
export function uploadGroups(picked: readonly PathedInput[], mode: FolderAlbums = 'tree'): UploadGroup[] {
  const loose: UploadInput[] = [];
  const albums = new Map<string, UploadInput[]>();
  for (const { input, relativePath } of picked) {
    const path = folders(relativePath);
    const albumName = mode === 'tree' ? path[0] : path.at(-1);
    if (!albumName) {
      loose.push(input);
      continue;
    }
    const inputs = albums.get(albumName);
    if (inputs) inputs.push(input);
    else albums.set(albumName, [input]);
  }
  const groups: UploadGroup[] = loose.length > 0 ? [{ inputs: loose }] : [];
  for (const [albumName, inputs] of albums) groups.push({ albumName, inputs });
  return groups;
}
