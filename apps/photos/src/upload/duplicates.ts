// The upload's duplicate rule (docs/protocol.md#photos-client-encryption): a file with the same hash, title
// and type as one the target album holds is skipped; one that another album of the user holds is added to the
// target (POST /collections/add-files) instead of uploaded again. The library's files are handed in by the
// caller, so this folder does not depend on how the library is kept. Each file of an upload asks, so the files
// are indexed by title and type once per list (the library hands out a new list when it changes) instead of
// scanned for each.
import type { FileType, GalleryFile } from '../library/types.ts';

/** What the rule needs of a new file; a live photo's `hash` is `contentHash` of its two. */
export interface DuplicateKey {
  title: string;
  fileType: FileType;
  hash: string;
}

/** What identifies a file's bytes: its `hash`, or a live photo's `imageHash:videoHash` (as dedup/ groups them). */
export function contentHash(metadata: { hash?: string; imageHash?: string; videoHash?: string }): string | undefined {
  if (metadata.hash) return metadata.hash;
  const { imageHash, videoHash } = metadata;
  return imageHash && videoHash ? `${imageHash}:${videoHash}` : undefined;
}

export type DuplicateDecision =
  { kind: 'upload' } | { kind: 'skip'; existing: GalleryFile } | { kind: 'add'; existing: GalleryFile };

const indexes = new WeakMap<readonly GalleryFile[], Map<string, GalleryFile[]>>();
const indexKey = (title: string, fileType: FileType) => `${fileType}|${title}`;

/** The files of `files` by title and type, built on the first question about this list. */
function sameTitleAndType(files: readonly GalleryFile[], title: string, fileType: FileType): readonly GalleryFile[] {
  let index = indexes.get(files);
  if (!index) {
    index = new Map();
    for (const file of files) {
      const key = indexKey(file.metadata.title, file.metadata.fileType);
      const list = index.get(key);
      if (list) list.push(file);
      else index.set(key, [file]);
    }
    indexes.set(files, index);
  }
  return index.get(indexKey(title, fileType)) ?? [];
}

/**
 * True when some file of the library has this title and type: only then can the file be a duplicate, and
 * only then is it worth hashing before encrypting (otherwise the hash comes with the encryption, in one pass).
 */
export function mayBeDuplicate(title: string, fileType: FileType, files: readonly GalleryFile[]): boolean {
  return sameTitleAndType(files, title, fileType).length > 0;
}

/**
 * The decision for a file going to `collectionID`. Only the user's own files are added from another album
 * (POST /collections/add-files takes the caller's files only); a match in an album shared with them uploads.
 */
export function decideDuplicate(
  key: DuplicateKey,
  collectionID: number,
  files: readonly GalleryFile[],
  userID: number,
): DuplicateDecision {
  const same = sameTitleAndType(files, key.title, key.fileType).filter(
    (file) => contentHash(file.metadata) === key.hash,
  );
  const inTarget = same.find((file) => file.collectionIDs.includes(collectionID));
  if (inTarget) return { kind: 'skip', existing: inTarget };
  const own = same.find((file) => file.ownerID === userID);
  if (own) return { kind: 'add', existing: own };
  return { kind: 'upload' };
}
