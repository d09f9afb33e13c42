/** @jest-environment node */
// HEIF detection by the `ftyp` box (the committed fixtures and hand-made headers, AVIF told apart), the viewer's
// decision, what runs without libheif (a file that is no HEIF is answered without loading it), and libheif-js's
// WebAssembly build decoding the fixture to pixels in Node, with the installed package's libheif.wasm. The bitmap and
// the JPEG need a browser (createImageBitmap, ImageData, OffscreenCanvas): the browser tests upload and view the
// fixture, and bench/heic.mjs times both.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { expect, jest, test } from '@jest/globals';

import {
  browserDecodes,
  decodeHeif,
  decodeHeifPixels,
  displayableOriginal,
  displayPlan,
  HEIF_MAX_DECODE_BYTES,
  heifPixelsAllowed,
  isHeif,
  isHeifHeader,
  provideLibheifWasm,
} from './heif.ts';

const fixtures = path.join(__dirname, '../../../../e2e/fixtures/photos');
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(fixtures, name)));

/** An `ftyp` box: size, "ftyp", the major brand, a minor version, the compatible brands. */
function ftyp(major: string, compatible: string[]): Uint8Array {
  const text = `ftyp${major}\0\0\0\0${compatible.join('')}`;
  const bytes = new Uint8Array(4 + text.length);
  new DataView(bytes.buffer).setUint32(0, bytes.length);
  for (let i = 0; i < text.length; i++) bytes[4 + i] = text.charCodeAt(i);
  return bytes;
}

test('the HEIC fixture is HEIF; the JPEG, PNG, MP4, WebM and MOV fixtures are not', () => {
  expect(isHeifHeader(fixture('garden.heic'))).toBe(true);
  for (const name of ['sunset-exif-gps.jpg', 'shapes.png', 'clip.mp4', 'clip.webm', 'live/live-moment.mov']) {
    expect([name, isHeifHeader(fixture(name))]).toEqual([name, false]);
  }
});

test('HEVC brands are HEIF; generic HEIF brands are unless an AVIF brand accompanies them', () => {
  for (const major of ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis'])
    expect(isHeifHeader(ftyp(major, []))).toBe(true);
  expect(isHeifHeader(ftyp('mif1', ['mif1', 'heic']))).toBe(true);
  expect(isHeifHeader(ftyp('msf1', ['msf1', 'hevc']))).toBe(true);
  expect(isHeifHeader(ftyp('mif1', ['avif', 'mif1', 'miaf']))).toBe(false);
  expect(isHeifHeader(ftyp('avif', ['avif', 'mif1']))).toBe(false);
  expect(isHeifHeader(ftyp('isom', ['isom', 'mp41']))).toBe(false);
  // Too short, or no ftyp box where it belongs.
  expect(isHeifHeader(ftyp('heic', []).subarray(0, 11))).toBe(false);
  expect(isHeifHeader(new Uint8Array([0, 0, 0, 16, 0x6d, 0x6f, 0x6f, 0x76, 0x68, 0x65, 0x69, 0x63]))).toBe(false);
});

test('isHeif reads a Blob by its first bytes, whatever its name or type says', async () => {
  expect(await isHeif(new Blob([fixture('garden.heic')], { type: 'image/jpeg' }))).toBe(true);
  expect(await isHeif(new Blob([fixture('sunset-exif-gps.jpg')], { type: 'image/heic' }))).toBe(false);
  expect(await isHeif(new Blob([]))).toBe(false);
});

test('the viewer converts only HEIF the browser cannot decode', () => {
  expect(displayPlan(true, false)).toBe('convert');
  expect(displayPlan(true, true)).toBe('asIs');
  expect(displayPlan(false, false)).toBe('asIs');
  expect(displayPlan(false, true)).toBe('asIs');
});

test('without createImageBitmap the browser decodes nothing; a file that is no HEIF passes untouched', async () => {
  const jpeg = new Blob([fixture('sunset-exif-gps.jpg')], { type: 'image/jpeg' });
  expect(await browserDecodes(jpeg)).toBe(false);
  // No HEIF: answered before libheif would load (Node has none of what decoding needs, so a load would throw).
  expect(await decodeHeif(jpeg)).toBeUndefined();
  expect(await displayableOriginal(jpeg)).toBe(jpeg);
});

test('a HEIF file past the decode limit is refused (placeholder thumbnail) before it is read or libheif loads', async () => {
  const header = new Blob([ftyp('heic', ['mif1', 'heic']).slice()]);
  // A stand-in for a huge file: only its size and first bytes exist; reading it whole would throw.
  const huge = {
    size: HEIF_MAX_DECODE_BYTES + 1,
    slice: (start?: number, end?: number) => header.slice(start, end),
    arrayBuffer: () => Promise.reject(new Error('read whole')),
  } as unknown as Blob;
  expect(await isHeif(huge)).toBe(true);
  expect(await decodeHeif(huge)).toBeUndefined();
});

test('declared dimensions past about 100 Mpx are not allocated', () => {
  expect(heifPixelsAllowed(4032, 3024)).toBe(true);
  expect(heifPixelsAllowed(10_000, 10_000)).toBe(true);
  expect(heifPixelsAllowed(60_000, 60_000)).toBe(false);
  expect(heifPixelsAllowed(0, 100)).toBe(false);
});

test("libheif's WebAssembly decodes the HEIC fixture: its size, its white square and its gradient's corners", async () => {
  const wasm = readFileSync(require.resolve('libheif-js/libheif-wasm/libheif.wasm'));
  provideLibheifWasm(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const pixels = await decodeHeifPixels(new Blob([fixture('garden.heic')]));
  expect([pixels.width, pixels.height, pixels.data.length]).toEqual([600, 400, 600 * 400 * 4]);
  const at = (x: number, y: number) => Array.from(pixels.data.subarray((y * 600 + x) * 4, (y * 600 + x) * 4 + 4));
  const near = (actual: number[], expected: number[]) =>
    actual.every((value, channel) => Math.abs(value - (expected[channel] ?? 0)) <= 12);
  // The square drawn at 90 % white over the gradient (README of the fixtures), opaque.
  expect([at(300, 200), near(at(300, 200), [252, 248, 250, 255])]).toEqual([at(300, 200), true]);
  // The gradient runs from 0x6a3093 (top left) to 0xf8cdda (bottom right).
  expect([at(2, 2), near(at(2, 2), [0x6a, 0x30, 0x93, 255])]).toEqual([at(2, 2), true]);
  expect([at(597, 397), near(at(597, 397), [0xf8, 0xcd, 0xda, 255])]).toEqual([at(597, 397), true]);
});

test('a file that is no HEIF picture is refused by libheif, not decoded into something', async () => {
  const wasm = readFileSync(require.resolve('libheif-js/libheif-wasm/libheif.wasm'));
  provideLibheifWasm(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await expect(decodeHeifPixels(new Blob([ftyp('heic', ['mif1', 'heic']).slice()]))).rejects.toThrow(
      'no picture in the HEIF file',
    );
  } finally {
    log.mockRestore();
  }
});
