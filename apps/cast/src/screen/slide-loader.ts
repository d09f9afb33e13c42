// A slide made ready to show at once: its bytes fetched, decrypted in the crypto worker, and decoded by the
// browser before it is handed over. An image's original when it is not too large and the browser decodes it
// (HEIC only where the browser does so natively); otherwise, and for a live photo, its thumbnail (a JPEG).
import { cryptoWorker } from '@ente/crypto/client.ts';

import type { CastAlbum } from './album.ts';
import { castFileBytes, CastHttpError } from './cast-api.ts';
import { CastEndedError } from './slideshow-loop.ts';

export type Slide = { id: number; url: string };

/** Originals larger than this are shown by their thumbnail (a TV's memory, a download's time). */
const MAX_ORIGINAL_BYTES = 50 * 1024 * 1024;

async function decodedURL(plaintext: Uint8Array<ArrayBuffer>): Promise<string> {
  const url = URL.createObjectURL(new Blob([plaintext]));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return url;
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
}

/** A 401 means the cast ended (revoked, album gone): the loop stops instead of skipping. */
export function endOn401(error: unknown): unknown {
  return error instanceof CastHttpError && error.status === 401 ? new CastEndedError('revoked') : error;
}

export async function loadSlide(album: CastAlbum, castToken: string, id: number, signal: AbortSignal): Promise<Slide> {
  const file = album.file(id);
  if (!file) throw new Error('file left the album');
  const crypto = await cryptoWorker();
  try {
    if (file.fileType === 0 && (file.fileSize ?? 0) <= MAX_ORIGINAL_BYTES) {
      try {
        const encrypted = await castFileBytes(castToken, id, 'download', signal);
        const plaintext = await crypto.decryptFileBytes(encrypted, file.fileHeader, file.key, 'stream');
        return { id, url: await decodedURL(plaintext as Uint8Array<ArrayBuffer>) };
      } catch (error) {
        if (signal.aborted || (error instanceof CastHttpError && error.status === 401)) throw error;
        // Not decodable here (HEIC in most browsers) or not fetched: the thumbnail instead.
      }
    }
    const encrypted = await castFileBytes(castToken, id, 'preview', signal);
    const plaintext = await crypto.decryptFileBytes(encrypted, file.thumbnailHeader, file.key, 'blob');
    return { id, url: await decodedURL(plaintext as Uint8Array<ArrayBuffer>) };
  } catch (error) {
    throw endOn401(error);
  }
}
