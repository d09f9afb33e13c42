// A file row and what the worker opened of it as a gallery file (model.ts's, in a module of its own): pure functions
// with no value of the protocol's, so that a public album's worker, which makes its gallery files here, loads none of
// the protocol's schemas (zod). A row whose decrypted metadata lacks what the gallery needs is dropped (null).
import type { OpenedFile } from '@ente/crypto/api.ts';
import type { PhotoFile } from '@ente/protocol/photos.ts';

import { FileType, type FileMetadata, type GalleryFile, type Visibility } from './types.ts';

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
export const numberOr = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const stringOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** The furthest a Date reaches from the epoch, in µs (8.64e15 ms): a time beyond it (any sharer can write one) is no date. */
const MAX_TIME_US = 8.64e18;
const timeOr = (value: unknown): number | undefined => {
  const number = numberOr(value);
  return number !== undefined && Math.abs(number) <= MAX_TIME_US ? number : undefined;
};

/** Magic metadata's `visibility` as Ente's clients write it: 1 archived, 2 hidden, anything else visible. */
export function visibilityOf(magic: unknown): Visibility | undefined {
  const value = isRecord(magic) ? magic.visibility : undefined;
  return value === 1 ? 'archived' : value === 2 ? 'hidden' : undefined;
}

/** The decrypted metadata if it has what the gallery needs (a title, the times, a known file type). */
export function metadataOf(value: unknown): FileMetadata | null {
  if (!isRecord(value)) return null;
  const title = stringOr(value.title);
  const creationTime = timeOr(value.creationTime);
  const fileType = numberOr(value.fileType);
  if (title === undefined || creationTime === undefined) return null;
  if (fileType !== FileType.image && fileType !== FileType.video && fileType !== FileType.livePhoto) return null;
  const metadata: FileMetadata = {
    title,
    creationTime,
    modificationTime: timeOr(value.modificationTime) ?? creationTime,
    fileType,
  };
  for (const field of ['hash', 'imageHash', 'videoHash'] as const) {
    const text = stringOr(value[field]);
    if (text !== undefined) metadata[field] = text;
  }
  for (const field of ['latitude', 'longitude'] as const) {
    const number = numberOr(value[field]);
    if (number !== undefined) metadata[field] = number;
  }
  return metadata;
}

/** A file of one collection, opened with that collection's key; null when its metadata is unusable. */
export function galleryFileOf(row: PhotoFile, opened: OpenedFile): GalleryFile | null {
  const metadata = metadataOf(opened.metadata);
  if (!metadata) return null;
  const file: GalleryFile = {
    id: row.id,
    ownerID: row.ownerID,
    collectionIDs: [row.collectionID],
    key: opened.key,
    fileHeader: row.file.decryptionHeader,
    thumbnailHeader: row.thumbnail.decryptionHeader,
    metadata,
    updationTime: row.updationTime,
  };
  if (row.info?.fileSize !== undefined) file.fileSize = row.info.fileSize;
  if (row.info?.thumbSize !== undefined) file.thumbnailSize = row.info.thumbSize;
  const pub = isRecord(opened.pubMagicMetadata) ? opened.pubMagicMetadata : {};
  const width = numberOr(pub.w);
  const height = numberOr(pub.h);
  const caption = stringOr(pub.caption);
  const editedTime = timeOr(pub.editedTime);
  if (width !== undefined) file.width = width;
  if (height !== undefined) file.height = height;
  if (caption !== undefined) file.caption = caption;
  if (editedTime !== undefined) file.editedTime = editedTime;
  const visibility = visibilityOf(opened.magicMetadata);
  if (visibility) file.visibility = visibility;
  return file;
}
