/** @jest-environment node */
// readExif (exif.ts) through the real exifreader on a JPEG built here byte by byte: an APP1 segment whose TIFF
// holds DateTimeOriginal with its offset and a GPS position south-west of nothing in particular.
import { expect, test } from '@jest/globals';

import { readExif } from './exif.ts';

type Entry = { tag: number; type: 'ascii' | 'long' | 'rational'; value: string | number | [number, number][] };

/** A little-endian TIFF of IFD0 (pointing at the Exif and GPS IFDs) with the given entries. */
function tiff(exifEntries: Entry[], gpsEntries: Entry[]): Uint8Array {
  const bytes: number[] = [];
  const u16 = (at: number, v: number) => {
    bytes[at] = v & 0xff;
    bytes[at + 1] = (v >> 8) & 0xff;
  };
  const u32 = (at: number, v: number) => {
    u16(at, v & 0xffff);
    u16(at + 2, (v >>> 16) & 0xffff);
  };
  const ifd = (at: number, entries: Entry[]) => {
    let data = at + 2 + entries.length * 12 + 4;
    u16(at, entries.length);
    entries.forEach((entry, index) => {
      const base = at + 2 + index * 12;
      u16(base, entry.tag);
      if (entry.type === 'long') {
        u16(base + 2, 4);
        u32(base + 4, 1);
        u32(base + 8, entry.value as number);
        return;
      }
      const payload: number[] =
        entry.type === 'ascii'
          ? [...new TextEncoder().encode(entry.value as string), 0]
          : (entry.value as [number, number][]).flatMap(([n, d]) =>
              [n, d].flatMap((v) => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >>> 24]),
            );
      u16(base + 2, entry.type === 'ascii' ? 2 : 5);
      u32(base + 4, entry.type === 'ascii' ? payload.length : payload.length / 8);
      if (payload.length <= 4) payload.forEach((b, i) => (bytes[base + 8 + i] = b));
      else {
        u32(base + 8, data);
        payload.forEach((b, i) => (bytes[data + i] = b));
        data += payload.length + (payload.length % 2);
      }
    });
    u32(at + 2 + entries.length * 12, 0);
    return data;
  };
  bytes.push(0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0);
  const exifAt = 8 + 2 + 2 * 12 + 4;
  const gpsAt = ifd(exifAt, exifEntries);
  ifd(8, [
    { tag: 0x8769, type: 'long', value: exifAt },
    { tag: 0x8825, type: 'long', value: gpsAt },
  ]);
  ifd(gpsAt, gpsEntries);
  // Gaps (padding) were never written: zeros.
  return Uint8Array.from({ length: bytes.length }, (_, i) => bytes[i] ?? 0);
}

function jpegWithExif(body: Uint8Array): Blob {
  const app1 = [...new TextEncoder().encode('Exif'), 0, 0, ...body];
  const length = app1.length + 2;
  return new Blob([Uint8Array.from([0xff, 0xd8, 0xff, 0xe1, length >> 8, length & 0xff, ...app1, 0xff, 0xd9])], {
    type: 'image/jpeg',
  });
}

test('creation time at its offset and the GPS position, from a real EXIF segment', async () => {
  const exif = tiff(
    [
      { tag: 0x9003, type: 'ascii', value: '2021:05:06 10:07:08' },
      { tag: 0x9011, type: 'ascii', value: '+02:00' },
    ],
    [
      { tag: 0x0001, type: 'ascii', value: 'S' },
      {
        tag: 0x0002,
        type: 'rational',
        value: [
          [33, 1],
          [52, 1],
          [3000, 100],
        ],
      },
      { tag: 0x0003, type: 'ascii', value: 'W' },
      {
        tag: 0x0004,
        type: 'rational',
        value: [
          [70, 1],
          [39, 1],
          [0, 1],
        ],
      },
    ],
  );
  const facts = await readExif(jpegWithExif(exif));
  expect(facts.creationTime).toBe(Date.UTC(2021, 4, 6, 8, 7, 8) * 1000);
  expect(facts.latitude).toBeCloseTo(-(33 + 52 / 60 + 30 / 3600), 6);
  expect(facts.longitude).toBeCloseTo(-(70 + 39 / 60), 6);
});

test('a date without an offset is read in the given time zone; no GPS, no place', async () => {
  const exif = tiff([{ tag: 0x9003, type: 'ascii', value: '2021:05:06 10:07:08' }], []);
  expect(await readExif(jpegWithExif(exif), () => -300)).toEqual({
    creationTime: Date.UTC(2021, 4, 6, 15, 7, 8) * 1000,
  });
});

test('no EXIF, or not an image at all: no facts', async () => {
  expect(await readExif(new Blob([Uint8Array.from([0xff, 0xd8, 0xff, 0xd9])]))).toEqual({});
  expect(await readExif(new Blob(['plain text']))).toEqual({});
});
