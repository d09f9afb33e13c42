// The rows of a public album's diff as gallery files, in the media worker (album-job.ts loads this module once an
// album opens, so that a visit that stops at the password form never fetches it): each row checked for the fields
// read here, with the types the protocol gives them (by hand: zod's 13 KiB gzip would be a third of what the visit
// may add to the page), its key and metadata opened with the album's key (@ente/crypto's box-open.ts and open.ts, no
// libsodium). A row that is not of that shape or does not open is null, and the others are kept.
import { openBoxBytes } from '@ente/crypto/box-open.ts';
import { fromB64 } from '@ente/crypto/encoding.ts';
import { openFile, type LockedFile, type Openers } from '@ente/crypto/file-open.ts';
import { openBlobBytes } from '@ente/crypto/open.ts';
import type { PhotoFile } from '@ente/protocol/photos.ts';

import { galleryFileOf, isRecord } from '../library/file-model.ts';
import type { GalleryFile } from '../library/types.ts';

/** The libsodium-free openers (album-job.ts): a visit to a link never loads libsodium. */
const openers: Openers = { box: openBoxBytes, blob: openBlobBytes };

const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown) => typeof value === 'string';
const optional = (value: unknown, check: (value: unknown) => boolean) => value === undefined || check(value);
const hasHeader = (value: unknown) => isRecord(value) && isString(value.decryptionHeader);
const isMagic = (value: unknown) => isRecord(value) && isString(value.data) && isString(value.header);

/** The row when the fields read here (lockedFile, galleryFileOf) have the protocol's types (`photoFileSchema`). */
function fileRow(row: unknown): PhotoFile | null {
  if (!isRecord(row)) return null;
  const { metadata, info } = row;
  const wellFormed =
    [row.id, row.ownerID, row.collectionID, row.updationTime].every(isNumber) &&
    isString(row.encryptedKey) &&
    isString(row.keyDecryptionNonce) &&
    typeof row.isDeleted === 'boolean' &&
    hasHeader(row.file) &&
    hasHeader(row.thumbnail) &&
    hasHeader(metadata) &&
    isRecord(metadata) &&
    optional(metadata.encryptedData, isString) &&
    optional(row.pubMagicMetadata, isMagic) &&
    optional(row.magicMetadata, isMagic) &&
    optional(
      info,
      (value) => isRecord(value) && optional(value.fileSize, isNumber) && optional(value.thumbSize, isNumber),
    );
  return wellFormed ? (row as PhotoFile) : null;
}

function lockedFile(row: PhotoFile): LockedFile {
  return {
    encryptedKey: row.encryptedKey,
    keyDecryptionNonce: row.keyDecryptionNonce,
    metadata: { encryptedData: row.metadata.encryptedData, decryptionHeader: row.metadata.decryptionHeader },
    pubMagicMetadata: row.pubMagicMetadata,
  };
}

/** Each row as a gallery file, in order; null for one that is malformed or does not open. */
export async function albumFilesOf(rows: readonly unknown[], collectionKey: string): Promise<(GalleryFile | null)[]> {
  const checked = rows.map(fileRow);
  const wellFormed = checked.filter((row) => row !== null);
  const key = fromB64(collectionKey);
  const opened = await Promise.all(wellFormed.map((row) => openFile(openers, lockedFile(row), key).catch(() => null)));
  const files = new Map(
    wellFormed.map((row, i) => {
      const each = opened[i];
      return [row, each ? galleryFileOf(row, each) : null];
    }),
  );
  return checked.map((row) => (row ? (files.get(row) ?? null) : null));
}
