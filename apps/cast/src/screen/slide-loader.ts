// A slide made ready to show at once: its bytes fetched (never more than a cap), decrypted in the crypto worker,
// and decoded by the browser before it is handed over. An image's original, a live photo's image (from its ZIP),
// a HEIC the browser cannot decode converted to JPEG in a worker; the thumbnail (a JPEG) when the original is too
// large or cannot be shown. The ZIP reader and the HEIC converter load with import() when first needed, so
// neither is in the page's first load.
import { cryptoWorker } from '@ente/crypto/client.ts';

import type { CastAlbum, CastFile } from './album.ts';
import { castFileBytes, CastHttpError } from './cast-api.ts';
import { CastEndedError } from './slideshow-loop.ts';

/** A slide ready to show: its decoded picture's object URL, and whether that is the original's or the thumbnail. */
export type Slide = { id: number; url: string; source: 'original' | 'thumbnail' };

/** Originals (a live photo's ZIP too) larger than this are shown by their thumbnail (a TV's memory, a download's time). */
const MAX_ORIGINAL_BYTES = 50 * 1024 * 1024;
/** The most of a thumbnail read (Ente's are at most about 100 KB). */
const MAX_THUMBNAIL_BYTES = 1024 * 1024;
/** Ente's metadata fileType of a live photo (its original a ZIP of an image and a video). */
const LIVE_PHOTO = 2;

async function decodedURL(image: Blob): Promise<string> {
  const url = URL.createObjectURL(image);
  try {
    const element = new Image();
    element.src = url;
    await element.decode();
    return url;
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
}

/** Whether a picture is an ISO BMFF file (HEIC, AVIF: an `ftyp` box first), which heif-convert.ts tells apart. */
function isIsoBmff(picture: Uint8Array): boolean {
  return String.fromCharCode(...picture.subarray(4, 8)) === 'ftyp';
}

/** A picture's object URL, decoded: as it is, or, a HEIF picture the browser does not decode, converted to JPEG. */
async function pictureURL(picture: Uint8Array<ArrayBuffer>, signal: AbortSignal): Promise<string> {
  if (!isIsoBmff(picture)) return decodedURL(new Blob([picture]));
  const { displayableHeif, isHeifPicture } = await import('./heif-convert.ts');
  // AVIF as it is; HEIF through the worker, which hands it back as it is where the browser decodes it (Safari).
  return decodedURL(isHeifPicture(picture) ? await displayableHeif(picture, signal) : new Blob([picture]));
}

/** The picture of a file's original: the file itself, or a live photo's image entry. */
async function originalPicture(file: CastFile, castToken: string, signal: AbortSignal) {
  const crypto = await cryptoWorker();
  const encrypted = await castFileBytes(castToken, file.id, 'download', MAX_ORIGINAL_BYTES, signal);
  const plaintext = (await crypto.decryptFileBytes(
    encrypted,
    file.fileHeader,
    file.key,
    'stream',
  )) as Uint8Array<ArrayBuffer>;
  if (file.fileType !== LIVE_PHOTO) return plaintext;
  const { livePhotoImage } = await import('@ente/shared/media/live-photo-zip.ts');
  return (await livePhotoImage(plaintext)).bytes;
}

/** A 401 means the cast ended (revoked, album gone): the loop stops instead of skipping. */
export function endOn401(error: unknown): unknown {
  return error instanceof CastHttpError && error.status === 401 ? new CastEndedError('revoked') : error;
}

export async function loadSlide(album: CastAlbum, castToken: string, id: number, signal: AbortSignal): Promise<Slide> {
  const file = album.file(id);
  if (!file) throw new Error('file left the album');
  try {
    if ((file.fileSize ?? 0) <= MAX_ORIGINAL_BYTES) {
      try {
        const url = await pictureURL(await originalPicture(file, castToken, signal), signal);
        return { id, url, source: 'original' };
      } catch (error) {
        if (signal.aborted || (error instanceof CastHttpError && error.status === 401)) throw error;
        // Not decodable nor convertible here, too large once read, or not fetched: the thumbnail instead.
      }
    }
    const crypto = await cryptoWorker();
    const encrypted = await castFileBytes(castToken, id, 'preview', MAX_THUMBNAIL_BYTES, signal);
    const plaintext = await crypto.decryptFileBytes(encrypted, file.thumbnailHeader, file.key, 'blob');
    return { id, url: await decodedURL(new Blob([plaintext as Uint8Array<ArrayBuffer>])), source: 'thumbnail' };
  } catch (error) {
    throw endOn401(error);
  }
}
