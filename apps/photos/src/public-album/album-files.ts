// The rows of a public album's diff as gallery files, in the media worker (album-job.ts loads this module once an
// album opens, so that a visit that stops at the password form never fetches it): each row checked against the
// protocol's shape of a file, its key and metadata opened with the album's key (@ente/crypto's open.ts, no libsodium). A row that is not a file's shape
// or does not open is null, and the others are kept.
import '@ente/shared/app/zod-without-eval.ts'; // before the protocol's schemas: the worker's CSP forbids eval too

import { fromB64 } from '@ente/crypto/encoding.ts';
import { openFile, type LockedFile, type Openers } from '@ente/crypto/file-open.ts';
import { openBlobBytes, openBoxBytes } from '@ente/crypto/open.ts';
import { photoFileSchema, type PhotoFile } from '@ente/protocol/photos.ts';

import { galleryFileOf } from '../library/model.ts';
import type { GalleryFile } from '../library/types.ts';

/** The libsodium-free openers (album-job.ts): a visit to a link never loads libsodium. */
const openers: Openers = { box: openBoxBytes, blob: openBlobBytes };

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
  const checked = rows.map((row) => {
    const parsed = photoFileSchema.safeParse(row);
    return parsed.success ? parsed.data : null;
  });
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
