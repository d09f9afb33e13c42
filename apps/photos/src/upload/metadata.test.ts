/** @jest-environment node */
// File types, EXIF dates and places, and the metadata JSON of a new file (metadata.ts).
import { describe, expect, test } from '@jest/globals';

import { FileType } from '../library/types.ts';
import { buildFileMetadata, buildPublicMetadata, exifFacts, fileTypeOf, parseExifDate } from './metadata.ts';

test('fileTypeOf: the MIME type first, then the extension', () => {
  expect(fileTypeOf('a.bin', 'image/png')).toBe(FileType.image);
  expect(fileTypeOf('a.jpg', 'video/mp4')).toBe(FileType.video);
  expect(fileTypeOf('IMG_1.HEIC', '')).toBe(FileType.image);
  expect(fileTypeOf('clip.MOV', '')).toBe(FileType.video);
  expect(fileTypeOf('notes.txt', 'text/plain')).toBeUndefined();
  expect(fileTypeOf('noextension', '')).toBeUndefined();
});

describe('parseExifDate', () => {
  test('with an offset: that instant', () => {
    expect(parseExifDate('2023:07:14 10:20:30', '+02:00')).toBe(Date.UTC(2023, 6, 14, 8, 20, 30));
    expect(parseExifDate('2023:07:14 10:20:30', '-05:30')).toBe(Date.UTC(2023, 6, 14, 15, 50, 30));
  });

  test('without one: in the given (browser) time zone', () => {
    expect(parseExifDate('2023:07:14 10:20:30', undefined, () => 60)).toBe(Date.UTC(2023, 6, 14, 9, 20, 30));
    expect(parseExifDate('2023:07:14 10:20:30', 'garbage', () => 0)).toBe(Date.UTC(2023, 6, 14, 10, 20, 30));
  });

  test('blanks and impossible dates are undefined', () => {
    expect(parseExifDate(undefined)).toBeUndefined();
    expect(parseExifDate('    :  :     :  :  ')).toBeUndefined();
    expect(parseExifDate('0000:00:00 00:00:00')).toBeUndefined();
    expect(parseExifDate('2023:13:01 00:00:00')).toBeUndefined();
  });
});

describe('exifFacts', () => {
  test('the original time (digitized as a fallback) in µs, and the place', () => {
    const facts = exifFacts({
      exif: {
        DateTimeOriginal: { description: '2020:01:02 03:04:05' },
        OffsetTimeOriginal: { description: '+00:00' },
      },
      gps: { Latitude: 48.85, Longitude: -2.35 },
    });
    expect(facts).toEqual({ creationTime: Date.UTC(2020, 0, 2, 3, 4, 5) * 1000, latitude: 48.85, longitude: -2.35 });
    const digitized = exifFacts({ exif: { DateTimeDigitized: { description: '2020:01:02 03:04:05' } } }, () => 0);
    expect(digitized).toEqual({ creationTime: Date.UTC(2020, 0, 2, 3, 4, 5) * 1000 });
  });

  test('no place for a missing, out-of-range or 0,0 position', () => {
    expect(exifFacts({ gps: { Latitude: 10 } })).toEqual({});
    expect(exifFacts({ gps: { Latitude: 91, Longitude: 0 } })).toEqual({});
    expect(exifFacts({ gps: { Latitude: 0, Longitude: 0 } })).toEqual({});
  });
});

test('buildFileMetadata: EXIF time when there is one, else the modification time; µs; place only when known', () => {
  const base = { name: 'IMG_1.jpg', fileType: FileType.image, lastModified: 1_700_000_000_123, hash: 'h' };
  expect(buildFileMetadata(base)).toEqual({
    title: 'IMG_1.jpg',
    creationTime: 1_700_000_000_123_000,
    modificationTime: 1_700_000_000_123_000,
    fileType: 0,
    hash: 'h',
  });
  expect(buildFileMetadata({ ...base, exif: { creationTime: 5, latitude: 1, longitude: 2 } })).toEqual({
    title: 'IMG_1.jpg',
    creationTime: 5,
    modificationTime: 1_700_000_000_123_000,
    fileType: 0,
    hash: 'h',
    latitude: 1,
    longitude: 2,
  });
});

test('buildPublicMetadata: the picture size as w and h, nothing when unknown', () => {
  expect(buildPublicMetadata({ width: 4000, height: 3000 })).toEqual({ w: 4000, h: 3000 });
  expect(buildPublicMetadata({})).toBeUndefined();
  expect(buildPublicMetadata({ width: 10 })).toBeUndefined();
});
