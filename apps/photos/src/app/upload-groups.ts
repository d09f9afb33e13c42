// Which album each picked or dropped file goes to: a folder becomes an album of its name (one album per top
// folder: "Trip/Day 1/a.jpg" and "Trip/b.jpg" both go to "Trip"), a loose file to the page's default album.
import type { PickedFile } from '../components/layout/picked-files.ts';

/** Files bound for one album: `albumName` for a folder's, none for the default album. */
export interface UploadGroup {
  albumName?: string;
  files: File[];
}

/** The groups in the order their first file came; the default album's (loose files) first. */
export function uploadGroups(picked: readonly PickedFile[]): UploadGroup[] {
  const loose: File[] = [];
  const folders = new Map<string, File[]>();
  for (const { file, relativePath } of picked) {
    const parts = relativePath.split('/').filter((part) => part.length > 0);
    const folder = parts.length > 1 ? parts[0]?.trim() : undefined;
    if (!folder) {
      loose.push(file);
      continue;
    }
    const files = folders.get(folder);
    if (files) files.push(file);
    else folders.set(folder, [file]);
  }
  const groups: UploadGroup[] = loose.length > 0 ? [{ files: loose }] : [];
  for (const [albumName, files] of folders) groups.push({ albumName, files });
  return groups;
}
