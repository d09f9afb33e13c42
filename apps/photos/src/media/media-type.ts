// The MIME type an object URL of an original gets. The bytes are the uploader's (any member of a shared album), so
// a Blob without a type, opened top-level ("Open image in new tab"), would be sniffed by the browser and could
// render as an HTML document of the app's origin. Every such Blob is typed: an image type recognised from its first
// bytes, a video's type from its title, else application/octet-stream (img and video still show it; a top-level
// open downloads it). Pure: no I/O but reading a Blob's head.

/** Bytes enough for every signature below (an ISO BMFF `ftyp` box with a few compatible brands). */
export const SNIFF_BYTES = 64;

const OCTET_STREAM = 'application/octet-stream';

const videoTypes: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

/** A video's MIME type from its title's extension; undefined for an extension not known here. */
export function videoTypeOf(title: string): string | undefined {
  const dot = title.lastIndexOf('.');
  return dot < 0 ? undefined : videoTypes[title.slice(dot + 1).toLowerCase()];
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

const heicBrands = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);

/** HEIC/HEIF/AVIF from the `ftyp` box's major brand, else (`mif1`, `msf1`) from its compatible brands. */
function isoImageType(head: Uint8Array): string | undefined {
  if (head.length < 12 || ascii(head, 4, 8) !== 'ftyp') return undefined;
  const boxEnd = Math.min(head.length, new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0));
  const major = ascii(head, 8, 12);
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= boxEnd; at += 4) compatible.push(ascii(head, at, at + 4));
  const brands = [major, ...compatible];
  if (brands.some((brand) => brand === 'avif' || brand === 'avis')) return 'image/avif';
  if (brands.some((brand) => heicBrands.has(brand))) return 'image/heic';
  if (major === 'mif1' || major === 'msf1') return 'image/heif';
  return undefined;
}

/** The image type of bytes starting with a JPEG, PNG, GIF, WebP, AVIF or HEIC/HEIF signature; else undefined. */
export function sniffImageType(head: Uint8Array): string | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a')) return 'image/gif';
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  return isoImageType(head);
}

/** The type of an original's object URL: `videoType` when given, else the sniffed image type, else octet-stream. */
export function mediaTypeOf(head: Uint8Array, videoType?: string): string {
  return videoType ?? sniffImageType(head) ?? OCTET_STREAM;
}

/** `data` as a Blob of its media type (see mediaTypeOf), for URL.createObjectURL. */
export async function typedBlob(data: Blob | Uint8Array<ArrayBuffer>, videoType?: string): Promise<Blob> {
  const head =
    data instanceof Blob
      ? new Uint8Array(await data.slice(0, SNIFF_BYTES).arrayBuffer())
      : data.subarray(0, SNIFF_BYTES);
  return new Blob([data], { type: mediaTypeOf(head, videoType) });
}
