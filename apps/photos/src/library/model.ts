// From what the server sent and what the crypto worker opened to the decrypted model of types.ts: pure
// functions, no I/O. A row whose decrypted metadata lacks what the gallery needs is dropped (null), as one
// that does not open is: the gallery shows what it can read.
import type { OpenedCollection, OpenedFile } from '@ente/crypto/api.ts';
import type { PublicLink } from '@ente/protocol/photos-trash-links.ts';
import { collectionTypes, type Collection, type CollectionRole, type PhotoFile } from '@ente/protocol/photos.ts';

import {
  FileType,
  type Album,
  type AlbumLink,
  type AlbumMember,
  type FileMetadata,
  type GalleryFile,
  type Visibility,
} from './types.ts';

// A sharee's role: OWNER is never one (the server could list the user as a sharee with it, and every page takes
// OWNER for "the user's own album", the target of uploads and restores), so it reads as VIEWER as unknown ones do.
const shareeRoles: readonly CollectionRole[] = ['VIEWER', 'COLLABORATOR', 'ADMIN'];
const roleOf = (role: string): CollectionRole =>
  (shareeRoles as readonly string[]).includes(role) ? (role as CollectionRole) : 'VIEWER';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const numberOr = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const stringOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** The furthest a Date reaches from the epoch, in µs (8.64e15 ms): a time beyond it (any sharer can write one) is no date. */
const MAX_TIME_US = 8.64e18;
const timeOr = (value: unknown): number | undefined => {
  const number = numberOr(value);
  return number !== undefined && Math.abs(number) <= MAX_TIME_US ? number : undefined;
};

/**
 * The album of a collection row opened by the worker; `userID` is the signed-in user. A row is the user's own
 * only when it names them as owner AND its key opened under their masterKey: a key sealed to their public key
 * could have been sealed by anyone (the server included), so a row naming the user as owner with a sealed key,
 * or another's row with a masterKey Box, is dropped (null) as one that did not open.
 */
export function albumOf(row: Collection, opened: OpenedCollection, userID: number): Album | null {
  const type = (collectionTypes as readonly string[]).includes(row.type) ? (row.type as Album['type']) : undefined;
  if (!type) return null;
  const ownedByUser = row.owner.id === userID;
  if (ownedByUser !== (opened.keyOpenedWith === 'masterKey')) return null;
  const owner: AlbumMember = { id: row.owner.id, email: row.owner.email, role: 'OWNER' };
  const sharees = (row.sharees ?? []).map((s) => ({ id: s.id, email: s.email, role: roleOf(s.role) }));
  const role: CollectionRole = ownedByUser ? 'OWNER' : (sharees.find((s) => s.id === userID)?.role ?? 'VIEWER');
  const album: Album = {
    id: row.id,
    name: opened.name,
    type,
    owner,
    role,
    key: opened.key,
    sharees,
    updationTime: row.updationTime,
  };
  const link = linkOf(row.publicURLs);
  if (link) album.link = link;
  const visibility = visibilityOf(role === 'OWNER' ? opened.magicMetadata : opened.sharedMagicMetadata);
  if (visibility) album.visibility = visibility;
  return album;
}

function linkOf(publicURLs: readonly unknown[] | null): AlbumLink | undefined {
  const link = publicURLs?.[0] as Partial<PublicLink> | undefined;
  if (!isRecord(link) || typeof link.url !== 'string') return undefined;
  return {
    url: link.url,
    passwordEnabled: link.passwordEnabled === true,
    enableDownload: link.enableDownload !== false,
    enableCollect: link.enableCollect === true,
    validTill: numberOr(link.validTill) ?? 0,
    deviceLimit: numberOr(link.deviceLimit) ?? 0,
  };
}

/** Magic metadata's `visibility` as Ente's clients write it: 1 archived, 2 hidden, anything else visible. */
function visibilityOf(magic: unknown): Visibility | undefined {
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
