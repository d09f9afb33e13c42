// HEIC/HEIF stills in the workers of the photos app (upload, viewer) and the cast screen (the browser's own decoder
// where it has one, libheif in a worker otherwise; docs/decisions.md#the-photos-app). A file is HEIF by its ISO BMFF `ftyp` box, never by its
// name. The browser's createImageBitmap is always tried first (Safari 17+ decodes HEIC); otherwise libheif, from
// heic-to, is imported on demand (its own chunk, about 3 MB, fetched the first time such a file is met) and
// decodes here, in the worker. Nothing is logged.
import type { Libheif } from 'heic-to/libheif';

/** Major brands that name a HEIF picture or sequence coded with HEVC. */
const hevcBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
/** Generic HEIF brands, which AVIF files carry too. */
const genericBrands = new Set(['mif1', 'msf1']);
/** Brands that make a generic HEIF file an AVIF one (browsers decode AVIF themselves). */
const avifBrands = new Set(['avif', 'avis']);

/** The bytes to read from the start of a file to tell whether it is HEIF. */
export const HEIF_SNIFF_BYTES = 64;

function brandAt(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + 4));
}

/**
 * Whether these first bytes of a file open a HEIC/HEIF picture: an `ftyp` box whose major brand is a HEVC one, or
 * a generic HEIF brand (`mif1`, `msf1`) that no AVIF brand accompanies.
 */
export function isHeifHeader(bytes: Uint8Array): boolean {
  if (bytes.length < 12 || brandAt(bytes, 4) !== 'ftyp') return false;
  const major = brandAt(bytes, 8);
  if (hevcBrands.has(major)) return true;
  if (!genericBrands.has(major)) return false;
  const boxSize = Math.min(bytes.length, new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0));
  const compatible: string[] = [];
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) compatible.push(brandAt(bytes, offset));
  return !compatible.some((brand) => avifBrands.has(brand));
}

/** Whether a file (a Blob) is HEIC/HEIF, from its first bytes. */
export async function isHeif(file: Blob): Promise<boolean> {
  return isHeifHeader(new Uint8Array(await file.slice(0, HEIF_SNIFF_BYTES).arrayBuffer()));
}

/**
 * How a viewer shows an original: `asIs` when it is no HEIF or the browser decodes it itself, `convert` (to JPEG,
 * in the worker) when it is HEIF the browser cannot decode.
 */
export type DisplayPlan = 'asIs' | 'convert';

export function displayPlan(heif: boolean, browserDecodes: boolean): DisplayPlan {
  return heif && !browserDecodes ? 'convert' : 'asIs';
}

/** Whether this browser decodes the picture itself (createImageBitmap exists and accepts it). */
export async function browserDecodes(file: Blob): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return false;
  try {
    (await createImageBitmap(file)).close();
    return true;
  } catch {
    return false;
  }
}

let libheif: Promise<Libheif> | undefined;

function loadLibheif(): Promise<Libheif> {
  libheif ??= import('heic-to/libheif').then(({ default: build }) => build());
  // A failed load (offline) may succeed on the next file.
  libheif.catch(() => (libheif = undefined));
  return libheif;
}

/** Past this a HEIF file is not read whole into the worker to be decoded (a hostile or mislabelled huge file). */
export const HEIF_MAX_DECODE_BYTES = 200 * 1024 * 1024;
/** Past this a HEIF picture's declared size is not allocated as RGBA pixels (about 400 MB at 100 Mpx). */
export const HEIF_MAX_DECODE_PIXELS = 100_000_000;

/** Why libheif was not asked to decode a file: too big to read, or declaring too many pixels to allocate. */
export class HeifTooLargeError extends Error {}

/** Whether a picture of these declared dimensions may be decoded into memory. */
export function heifPixelsAllowed(width: number, height: number): boolean {
  return width > 0 && height > 0 && width * height <= HEIF_MAX_DECODE_PIXELS;
}

/** The first picture of a HEIF file decoded by libheif, as RGBA pixels. */
async function decodeWithLibheif(file: Blob): Promise<ImageData> {
  if (file.size > HEIF_MAX_DECODE_BYTES) throw new HeifTooLargeError('the HEIF file is too large to decode');
  const heif = await loadLibheif();
  const decoder = new heif.HeifDecoder();
  const images = decoder.decode(await file.arrayBuffer());
  try {
    const image = images[0];
    if (!image) throw new Error('no picture in the HEIF file');
    if (!heifPixelsAllowed(image.get_width(), image.get_height())) {
      throw new HeifTooLargeError('the HEIF picture is too large to decode');
    }
    const target = new ImageData(image.get_width(), image.get_height());
    return await new Promise<ImageData>((resolve, reject) =>
      image.display(target, (result) => (result ? resolve(result) : reject(new Error('HEIF decoding failed')))),
    );
  } finally {
    for (const image of images) image.free();
    if (decoder.decoder) heif.heif_context_free(decoder.decoder);
  }
}

/**
 * The upload's image decoder for HEIF (registered with `registerImageDecoder`, so it runs only after the browser's
 * own decoder failed): undefined for any other file, without loading libheif, and for one too large to decode
 * (the upload then gets a placeholder thumbnail).
 */
export async function decodeHeif(file: Blob): Promise<ImageBitmap | undefined> {
  if (!(await isHeif(file))) return undefined;
  let pixels: ImageData;
  try {
    pixels = await decodeWithLibheif(file);
  } catch (error) {
    if (error instanceof HeifTooLargeError) return undefined;
    throw error;
  }
  return createImageBitmap(pixels);
}

export const HEIF_JPEG_QUALITY = 0.92;

/** A HEIF picture as a JPEG the viewer can show (decoded by libheif, encoded by an OffscreenCanvas). */
export async function heifToJpeg(file: Blob): Promise<Blob> {
  const pixels = await decodeWithLibheif(file);
  const canvas = new OffscreenCanvas(pixels.width, pixels.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.putImageData(pixels, 0, 0);
  return canvas.convertToBlob({ type: 'image/jpeg', quality: HEIF_JPEG_QUALITY });
}

/** The original as the viewer should get it: as is, or converted to JPEG when it is HEIF the browser cannot show. */
export async function displayableOriginal(file: Blob): Promise<Blob> {
  const heif = await isHeif(file);
  if (displayPlan(heif, heif && (await browserDecodes(file))) === 'asIs') return file;
  return heifToJpeg(file);
}
