// The deduplicate page's logic, pure (docs/protocol.md#photos-client-encryption): the user's own files
// grouped by the hash of their bytes (metadata `hash`; a live photo by `imageHash` and `videoHash` together) and
// their file type; in each group the one to keep and the rest to trash, the kept one added first to every album
// the others were in, so that no album loses a picture. A copy in an album where the user is a viewer stays (the
// kept one cannot be added there). The library runs the plan (`addToAlbum`, `trashFiles`).
import type { Album, FileType, GalleryFile } from '../library/types.ts';

/**
 * Files with the same bytes: `keep` stays, `trash` goes; `stays` are copies that stay too, being in an album where
 * the user may not add the kept one (a viewer); `files` is all of them, the kept one first, then `trash`, `stays`.
 */
export interface DuplicateGroup {
  /** The hash and file type they share (a key for React lists and for the page's choices). */
  key: string;
  fileType: FileType;
  keep: GalleryFile;
  trash: GalleryFile[];
  stays: GalleryFile[];
  files: GalleryFile[];
  /** Encrypted bytes freed by trashing the others (0 where the server gave no size). */
  freedBytes: number;
}

/** One step of the plan: the library's `addToAlbum(albumID, files)` or `trashFiles(files)`. */
export type DedupRequest =
  { kind: 'add-files'; albumID: number; files: GalleryFile[] } | { kind: 'trash'; files: GalleryFile[] };

/** The hash of a file's bytes as Ente's clients write it, or undefined when the metadata has none. */
export function contentHash(file: GalleryFile): string | undefined {
  const { hash, imageHash, videoHash } = file.metadata;
  if (hash) return hash;
  return imageHash && videoHash ? `${imageHash}:${videoHash}` : undefined;
}

/** Which to keep of equal files: the one in the most albums, then the oldest upload (the lowest id). */
export function keepOrder(a: GalleryFile, b: GalleryFile): number {
  return b.collectionIDs.length - a.collectionIDs.length || a.id - b.id;
}

/** The albums where the user is a viewer: nothing can be added there, so a copy there cannot be replaced. */
function viewerAlbums(albums: readonly Pick<Album, 'id' | 'role'>[]): ReadonlySet<number> {
  return new Set(albums.filter((album) => album.role === 'VIEWER').map((album) => album.id));
}

/** Whether `file` may go for `keep`: each of its albums where `keep` is not is one the kept file can be added to. */
function replaceable(file: GalleryFile, keep: GalleryFile, readOnly: ReadonlySet<number>): boolean {
  return file.collectionIDs.every((id) => !readOnly.has(id) || keep.collectionIDs.includes(id));
}

/**
 * The groups of duplicates among `files`, biggest first (then most bytes freed, then the kept file's id). Only the
 * user's own files count, and only those in an album of their own (the library trashes a file through one).
 */
export function duplicateGroups(
  files: readonly GalleryFile[],
  userID: number,
  albums: readonly Pick<Album, 'id' | 'role'>[],
): DuplicateGroup[] {
  const ownAlbums = new Set(albums.filter((album) => album.role === 'OWNER').map((album) => album.id));
  const readOnly = viewerAlbums(albums);
  // A copy in a viewer's album is kept first: it stays either way, and the others may then go.
  const pinned = (file: GalleryFile) => file.collectionIDs.filter((id) => readOnly.has(id)).length;
  const byKey = new Map<string, GalleryFile[]>();
  for (const file of files) {
    const hash = contentHash(file);
    if (hash === undefined || file.ownerID !== userID || !file.collectionIDs.some((id) => ownAlbums.has(id))) continue;
    const key = `${file.metadata.fileType}:${hash}`;
    const group = byKey.get(key);
    if (group) group.push(file);
    else byKey.set(key, [file]);
  }
  const groups: DuplicateGroup[] = [];
  for (const [key, members] of byKey) {
    if (members.length < 2) continue;
    const [keep, ...others] = [...members].sort((a, b) => pinned(b) - pinned(a) || keepOrder(a, b));
    if (!keep) continue;
    const trash = others.filter((file) => replaceable(file, keep, readOnly));
    if (trash.length === 0) continue;
    const stays = others.filter((file) => !trash.includes(file));
    const freedBytes = trash.reduce((sum, file) => sum + (file.fileSize ?? 0), 0);
    const files = [keep, ...trash, ...stays];
    groups.push({ key, fileType: keep.metadata.fileType, keep, trash, stays, files, freedBytes });
  }
  return groups.sort((a, b) => b.files.length - a.files.length || b.freedBytes - a.freedBytes || a.keep.id - b.keep.id);
}

/**
 * The requests that carry out the chosen groups: first, per album, the kept files added where the others were and
 * they are not (albums the user may add to: not as a viewer, and known to the library); then one trash of all the
 * others, but for a copy in an album where the user is now a viewer (the kept one is not there and cannot be
 * added). Adding first means that a failure part way never leaves an album without the picture.
 */
export function dedupPlan(
  groups: readonly DuplicateGroup[],
  albums: readonly Pick<Album, 'id' | 'role'>[],
): DedupRequest[] {
  const writable = new Set(albums.filter((album) => album.role !== 'VIEWER').map((album) => album.id));
  const readOnly = viewerAlbums(albums);
  const additions = new Map<number, GalleryFile[]>();
  const trashed: GalleryFile[] = [];
  for (const { keep, trash } of groups) {
    // The roles may have changed since the groups were drawn: they are read again here.
    const going = trash.filter((file) => replaceable(file, keep, readOnly));
    trashed.push(...going);
    const already = new Set(keep.collectionIDs);
    for (const albumID of new Set(going.flatMap((file) => file.collectionIDs))) {
      if (already.has(albumID) || !writable.has(albumID)) continue;
      const list = additions.get(albumID);
      if (list) list.push(keep);
      else additions.set(albumID, [keep]);
    }
  }
  const plan: DedupRequest[] = [...additions]
    .sort(([a], [b]) => a - b)
    .map(([albumID, files]) => ({ kind: 'add-files', albumID, files }));
  if (trashed.length > 0) plan.push({ kind: 'trash', files: trashed });
  return plan;
}
