/** @jest-environment node */
import { fileAt } from '../testing/files.ts';
import { formatBytes, infoRows, maxScale, noZoom, pan, swipeOf, wheelFactor, zoomAbout } from './viewer-model.ts';

test('zooming about a point keeps that point in place, within 1…8, centred again at 1', () => {
  const zoomed = zoomAbout(noZoom, 2, { x: 100, y: -50 });
  // The point 100 px right of the centre was image point 100; at ×2 it is at 200 - offset(−100) = 100.
  expect(zoomed).toEqual({ scale: 2, x: -100, y: 50 });
  expect(zoomAbout(zoomed, 100, { x: 0, y: 0 }).scale).toBe(maxScale);
  expect(zoomAbout(zoomed, 0.1, { x: 30, y: 30 })).toEqual(noZoom);
  expect(wheelFactor(-100)).toBeGreaterThan(1);
  expect(wheelFactor(100)).toBeLessThan(1);
});

test('panning stops where the zoomed image would leave the stage', () => {
  const stage = { width: 400, height: 300 };
  const zoom = { scale: 2, x: 0, y: 0 };
  expect(pan(zoom, 50, -20, stage)).toEqual({ scale: 2, x: 50, y: -20 });
  expect(pan(zoom, 1000, 1000, stage)).toEqual({ scale: 2, x: 200, y: 150 });
  expect(pan(noZoom, 50, 50, stage)).toEqual(noZoom);
});

test('a swipe is sideways, far and quick enough', () => {
  expect(swipeOf(-120, 10, 200)).toBe('next');
  expect(swipeOf(120, -10, 200)).toBe('previous');
  expect(swipeOf(40, 0, 200)).toBeUndefined();
  expect(swipeOf(-120, 100, 200)).toBeUndefined();
  expect(swipeOf(-120, 0, 2000)).toBeUndefined();
});

test('sizes and the info rows, only those there is something for', () => {
  expect(formatBytes(512, 'en-US')).toBe('512 B');
  expect(formatBytes(1536, 'en-US')).toBe('1.5 KB');
  expect(formatBytes(3.25 * 1024 * 1024, 'de-DE')).toBe('3,3 MB');
  const taken = new Date(2025, 5, 1, 14, 30);
  const bare = fileAt(1, taken);
  expect(infoRows(bare, undefined, 'en-US').map((row) => row.key)).toEqual(['name', 'date']);
  // The server's size is the encrypted object's: a 512-byte photo is one chunk, 17 bytes larger.
  const full = fileAt(2, taken, {
    fileSize: 512 + 17,
    width: 4000,
    height: 3000,
    metadata: { ...bare.metadata, title: 'beach.jpg', latitude: 48.85837, longitude: 2.294481 },
  });
  expect(infoRows(full, { camera: 'Apple iPhone 15' }, 'en-US')).toEqual([
    { key: 'name', value: 'beach.jpg' },
    { key: 'date', value: 'Sunday, June 1, 2025 at 2:30 PM' },
    { key: 'size', value: '512 B' },
    { key: 'dimensions', value: '4000 × 3000' },
    { key: 'place', value: '48.85837, 2.29448' },
    { key: 'camera', value: 'Apple iPhone 15' },
  ]);
  // A place's name wins over the coordinates.
  expect(infoRows(full, { place: 'Paris' }, 'en-US').find((row) => row.key === 'place')?.value).toBe('Paris');
});

test('the info panel leaves out a date no Date holds instead of throwing', () => {
  const file = fileAt(1, new Date(2025, 0, 1), { editedTime: 1e20 });
  expect(infoRows(file, undefined, 'en-US').map((row) => row.key)).toEqual(['name']);
});
