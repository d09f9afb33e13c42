/** @jest-environment node */
// A live photo's ZIP: its image alone (the cast screen) or its image and video (a download), read by the names
// Ente's clients give the entries; a ZIP without one of them, or that is no ZIP, is refused. The caps against
// hostile ZIPs are tested with the photos app's download (apps/photos/src/download/zip-stream.test.ts), but for the
// count of entries, tested here.
import { expect, test } from '@jest/globals';

import { livePhotoImage, livePhotoParts } from './live-photo-zip.ts';

/** A ZIP of stored (uncompressed) entries, written field by field (CRCs left 0: the reader does not check them). */
function storedZip(entries: Record<string, Uint8Array>): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const directory: Uint8Array[] = [];
  let offset = 0;
  for (const [name, bytes] of Object.entries(entries)) {
    const nameBytes = encoder.encode(name);
    const local = new Uint8Array(30 + nameBytes.length + bytes.length);
    const view = new DataView(local.buffer);
    view.setUint32(0, 0x04034b50, true);
    view.setUint32(18, bytes.length, true);
    view.setUint32(22, bytes.length, true);
    view.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    local.set(bytes, 30 + nameBytes.length);
    const entry = new Uint8Array(46 + nameBytes.length);
    const entryView = new DataView(entry.buffer);
    entryView.setUint32(0, 0x02014b50, true);
    entryView.setUint32(20, bytes.length, true);
    entryView.setUint32(24, bytes.length, true);
    entryView.setUint16(28, nameBytes.length, true);
    entryView.setUint32(42, offset, true);
    entry.set(nameBytes, 46);
    locals.push(local);
    directory.push(entry);
    offset += local.length;
  }
  const directorySize = directory.reduce((sum, entry) => sum + entry.length, 0);
  const end = new Uint8Array(22);
  const endView = new DataView(end.buffer);
  endView.setUint32(0, 0x06054b50, true);
  endView.setUint16(8, directory.length, true);
  endView.setUint16(10, directory.length, true);
  endView.setUint32(12, directorySize, true);
  endView.setUint32(16, offset, true);
  const zip = new Uint8Array(offset + directorySize + end.length);
  let at = 0;
  for (const part of [...locals, ...directory, end]) {
    zip.set(part, at);
    at += part.length;
  }
  return zip;
}

const image = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]);
const video = new Uint8Array([0, 0, 0, 0x14, 0x66, 0x74, 0x79, 0x70]);

test("a live photo's image is its ZIP's image entry, whatever the entries' order and case", async () => {
  const zip = storedZip({ 'video.MOV': video, 'IMAGE.jpg': image });
  expect(await livePhotoImage(zip)).toEqual({ name: 'IMAGE.jpg', bytes: image });
  expect(await livePhotoParts(zip)).toEqual({
    image: { name: 'IMAGE.jpg', bytes: image },
    video: { name: 'video.MOV', bytes: video },
  });
});

test('a ZIP without an image entry, or bytes that are no ZIP, are refused', async () => {
  await expect(livePhotoImage(storedZip({ 'video.mov': video }))).rejects.toThrow(
    'a live photo without its image or its video',
  );
  await expect(livePhotoParts(storedZip({ 'image.jpg': image }))).rejects.toThrow(
    'a live photo without its image or its video',
  );
  await expect(livePhotoImage(new Uint8Array(image))).rejects.toThrow('not a ZIP');
});

test('a ZIP whose directory lists more than 16 entries is refused before any entry is read', async () => {
  const names = (count: number) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [i === 0 ? 'image.jpg' : `extra-${String(i)}.txt`, image]),
    );
  expect((await livePhotoImage(storedZip(names(16)))).name).toBe('image.jpg');
  await expect(livePhotoImage(storedZip(names(17)))).rejects.toThrow('a live photo ZIP of more than 16 entries');
});
