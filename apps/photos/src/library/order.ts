// The gallery's order, and the files of one album: small pure helpers pages may import without the library's
// code (they import nothing).
import type { Album, GalleryFile } from './types.ts';

/** When a file was taken, as the gallery sorts and groups it: the edited time, else the metadata's. */
export const takenAt = (file: GalleryFile): number => file.editedTime ?? file.metadata.creationTime;

/** Newest first; equal times by id, newest id first, so that the order is total. */
export const newestFirst = (a: GalleryFile, b: GalleryFile): number => takenAt(b) - takenAt(a) || b.id - a.id;

/** The files of one album, in the order given (the snapshot's: newest first). */
export function filesOfAlbum(snapshot: { files: readonly GalleryFile[] }, albumID: number): GalleryFile[] {
  return snapshot.files.filter((file) => file.collectionIDs.includes(albumID));
}

/**
 * The files of the photos timeline, in the order given: as Ente's clients do, a file archived itself, or held by
 * an archived album, is left out (it stays in its albums). Hidden files are already out of the snapshot.
 */
export function timelineFiles(snapshot: { files: readonly GalleryFile[]; albums: readonly Album[] }): GalleryFile[] {
  const archived = new Set(snapshot.albums.filter((album) => album.visibility === 'archived').map((album) => album.id));
  return snapshot.files.filter(
    (file) => file.visibility === undefined && !file.collectionIDs.some((id) => archived.has(id)),
  );
}
