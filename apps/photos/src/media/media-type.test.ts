/**
 * @jest-environment node
 */
import { mediaTypeOf, sniffImageType, typedBlob, videoTypeOf } from './media-type.ts';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) => (typeof part === 'string' ? Array.from(new TextEncoder().encode(part)) : part)),
  );

/** An ISO BMFF `ftyp` box: size, 'ftyp', major brand, minor version, compatible brands. */
const ftyp = (major: string, ...compatible: string[]) =>
  bytes([0, 0, 0, 16 + 4 * compatible.length], 'ftyp', major, [0, 0, 0, 0], ...compatible, [0, 0, 0, 8], 'meta');

test('image types from the first bytes: JPEG, PNG, GIF, WebP, AVIF, HEIC/HEIF', () => {
  expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
  expect(sniffImageType(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
  expect(sniffImageType(bytes('GIF89a'))).toBe('image/gif');
  expect(sniffImageType(bytes('GIF87a'))).toBe('image/gif');
  expect(sniffImageType(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp');
  expect(sniffImageType(ftyp('avif', 'mif1', 'miaf'))).toBe('image/avif');
  expect(sniffImageType(ftyp('heic', 'mif1'))).toBe('image/heic');
  expect(sniffImageType(ftyp('mif1', 'heic'))).toBe('image/heic');
  expect(sniffImageType(ftyp('mif1', 'avif'))).toBe('image/avif');
  expect(sniffImageType(ftyp('mif1'))).toBe('image/heif');
  // A brand after the ftyp box (here the next box's name) is no compatible brand.
  expect(sniffImageType(bytes([0, 0, 0, 16], 'ftyp', 'mif1', [0, 0, 0, 0], [0, 0, 0, 8], 'avif'))).toBe('image/heif');
});

test('anything else is no image: HTML, SVG, a video’s ftyp, a truncated signature, nothing', () => {
  expect(sniffImageType(bytes('<!doctype html><script>'))).toBeUndefined();
  expect(sniffImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeUndefined();
  expect(sniffImageType(ftyp('isom', 'mp41'))).toBeUndefined();
  expect(sniffImageType(ftyp('qt  '))).toBeUndefined();
  expect(sniffImageType(bytes([0xff, 0xd8]))).toBeUndefined();
  expect(sniffImageType(bytes('RIFF'))).toBeUndefined();
  expect(sniffImageType(new Uint8Array())).toBeUndefined();
});

test('an original’s type: the video type when given, else the image type, else octet-stream; a video’s from its title', () => {
  expect(videoTypeOf('Clip.MOV')).toBe('video/quicktime');
  expect(videoTypeOf('a.b.mp4')).toBe('video/mp4');
  expect(videoTypeOf('clip.avi')).toBeUndefined();
  expect(videoTypeOf('mp4')).toBeUndefined();
  expect(mediaTypeOf(bytes([0xff, 0xd8, 0xff]), 'video/mp4')).toBe('video/mp4');
  expect(mediaTypeOf(bytes([0xff, 0xd8, 0xff]))).toBe('image/jpeg');
  expect(mediaTypeOf(bytes('<html><body onload=alert(1)>'))).toBe('application/octet-stream');
});

test('typedBlob keeps every byte and types the Blob from its head (a Blob or bytes)', async () => {
  const png = bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], 'rest of the picture');
  const typed = await typedBlob(new Blob([png]));
  expect(typed.type).toBe('image/png');
  expect(new Uint8Array(await typed.arrayBuffer())).toEqual(png);
  // A Blob typed by someone else (text/html) gets the type of its bytes.
  expect((await typedBlob(new Blob([bytes('<html>')], { type: 'text/html' }))).type).toBe('application/octet-stream');
  expect((await typedBlob(bytes('anything'), 'video/webm')).type).toBe('video/webm');
});
