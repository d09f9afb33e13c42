// Thumbnails in the upload worker (docs/protocol.md#photos-client-encryption): a JPEG whose longest side is at
// most 720 px, at quality 0.7 lowered step by step to 0.5 until it is at most 100 KB. Images are decoded with
// createImageBitmap, which applies the EXIF orientation; a video's frame arrives as an ImageBitmap captured on
// the main thread (video-frame.ts). What no decoder can read gets a placeholder, and the upload goes on.
//
// Extension point: `imageDecoders` are tried in order after the browser's own decoder. The HEIC/HEIF
// decoder (heif.ts) is registered there by the worker's entry (upload-worker.ts).

import { stageClock, type StageClock } from './stage-times.ts';

export const THUMBNAIL_MAX_SIDE = 720;
export const THUMBNAIL_MAX_BYTES = 100 * 1000;
const qualities = [0.7, 0.65, 0.6, 0.55, 0.5];

/** Width and height within `maxSide` keeping the aspect ratio (never enlarged, at least 1 px each). */
export function fitWithin(
  width: number,
  height: number,
  maxSide = THUMBNAIL_MAX_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Decodes an image the browser cannot (HEIC…), or answers undefined when it cannot either. */
export type ImageDecoder = (file: Blob) => Promise<ImageBitmap | undefined>;
const imageDecoders: ImageDecoder[] = [];

export function registerImageDecoder(decoder: ImageDecoder): void {
  imageDecoders.push(decoder);
}

async function decodeImage(file: Blob): Promise<ImageBitmap | undefined> {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    // Not decodable here: try the registered decoders.
  }
  for (const decoder of imageDecoders) {
    try {
      const bitmap = await decoder(file);
      if (bitmap) return bitmap;
    } catch {
      // The next one may.
    }
  }
  return undefined;
}

/** The thumbnail JPEG of a decoded picture (the bitmap is closed). */
export async function thumbnailOf(bitmap: ImageBitmap, clock: StageClock = stageClock()): Promise<Blob> {
  const { width, height } = fitWithin(bitmap.width, bitmap.height);
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  const drawFrom = performance.now();
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  clock.add('thumbnailDraw', performance.now() - drawFrom);
  let blob: Blob | undefined;
  for (const quality of qualities) {
    blob = await clock.time('thumbnailEncode', canvas.convertToBlob({ type: 'image/jpeg', quality }));
    if (blob.size <= THUMBNAIL_MAX_BYTES) break;
  }
  return blob as Blob;
}

/** A plain grey square: the thumbnail of a file no decoder could read. */
export async function placeholderThumbnail(): Promise<Blob> {
  const canvas = new OffscreenCanvas(256, 256);
  const context = canvas.getContext('2d');
  if (context) {
    context.fillStyle = '#8a8a8a';
    context.fillRect(0, 0, 256, 256);
  }
  return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.7 });
}

/** A thumbnail, and the size of the picture it was made from (absent for a placeholder). */
export interface Thumbnail {
  jpeg: Blob;
  width?: number;
  height?: number;
}

/** The thumbnail of an image file, or of a video's captured frame; a placeholder when neither decodes. */
export async function makeThumbnail(
  source: { image: Blob } | { frame: ImageBitmap | undefined },
  clock: StageClock = stageClock(),
): Promise<Thumbnail> {
  const bitmap = 'image' in source ? await clock.time('thumbnailDecode', decodeImage(source.image)) : source.frame;
  if (!bitmap) return { jpeg: await placeholderThumbnail() };
  const { width, height } = bitmap;
  try {
    return { jpeg: await thumbnailOf(bitmap, clock), width, height };
  } catch {
    return { jpeg: await placeholderThumbnail() };
  }
}
