/** @jest-environment node */
// The streamed ZIP, read back byte for byte: each entry's bytes and CRC-32 (node:zlib) match the original, names
// are the safe and unique titles, times the creation times; a live photo gives its image and video; originals are
// opened one at a time, each only after the previous one was read to its end; progress counts files and bytes;
// a cancel or a failed original errors the ZIP.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

import { expect, jest, test } from '@jest/globals';
import { makeZip } from 'client-zip';

import { streamEncryptedSize } from '@ente/crypto/stream-sizes.ts';

import { FileType } from '../library/types.ts';
import {
  LIVE_PHOTO_MAX_BYTES,
  LIVE_PHOTO_MAX_ENTRY_BYTES,
  LIVE_PHOTO_MAX_INFLATED_BYTES,
  livePhotoFiles,
  readLivePhoto,
  readZipEntries,
} from './live-photo.ts';
import { creationDate, zipStream, type DownloadableFile, type DownloadProgress } from './zip-stream.ts';

const fixtures = path.join(__dirname, '../../../../e2e/fixtures/photos');
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(fixtures, name)));

/** A creation time of its own for each test file (µs). */
const createdAt = (id: number) => Date.UTC(2020 + id, id % 12, 10 + id, 8 + id, 30, 15) * 1000;

function file(id: number, title: string, bytes: Uint8Array, fileType: FileType = FileType.image): DownloadableFile {
  const creationTime = createdAt(id);
  return {
    id,
    key: `key-${id}`,
    fileHeader: `header-${id}`,
    metadata: { title, creationTime, modificationTime: creationTime, fileType },
    fileSize: streamEncryptedSize(bytes.length),
  };
}

/** Streams of the given bytes in 64 KiB pieces, recording when each was opened and when it was read to its end. */
function originals(bytesByID: Map<number, Uint8Array>) {
  const events: string[] = [];
  const open = (requested: DownloadableFile) => {
    const bytes = bytesByID.get(requested.id);
    if (!bytes) return Promise.reject(new Error(`no original ${requested.id}`));
    events.push(`open ${requested.id}`);
    let offset = 0;
    return Promise.resolve(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.length) {
            events.push(`end ${requested.id}`);
            controller.close();
            return;
          }
          controller.enqueue(bytes.slice(offset, offset + 65536));
          offset += 65536;
        },
      }),
    );
  };
  return { open, events };
}

/** Each central-directory entry's name, CRC-32 and DOS time, read by hand. */
function directory(zip: Uint8Array): { name: string; crc: number; time: Date }[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const entries = [];
  for (let at = 0; at + 46 <= zip.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const time = view.getUint16(at + 12, true);
    const date = view.getUint16(at + 14, true);
    const nameLength = view.getUint16(at + 28, true);
    entries.push({
      name: new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength)),
      crc: view.getUint32(at + 16, true),
      time: new Date(
        (date >> 9) + 1980,
        ((date >> 5) & 15) - 1,
        date & 31,
        time >> 11,
        (time >> 5) & 63,
        (time & 31) * 2,
      ),
    });
  }
  return entries;
}

async function livePhotoZip(): Promise<Uint8Array<ArrayBuffer>> {
  const stream = makeZip([
    { name: 'image.jpg', input: fixture('live/live-moment.jpg') },
    { name: 'video.mov', input: fixture('live/live-moment.mov') },
  ]);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const evenSeconds = (date: Date) => new Date(Math.floor(date.getTime() / 2000) * 2000);

test('the ZIP gives back every original byte for byte, under safe unique names, at the creation times', async () => {
  const big = new Uint8Array(randomBytes(5 * 1024 * 1024 + 3));
  const live = await livePhotoZip();
  const files = [
    file(1, 'sunset.jpg', fixture('sunset-exif-gps.jpg')),
    file(2, 'sunset.jpg', fixture('sunset-exif-gps-duplicate.jpg')),
    file(3, '../../clip.webm', fixture('clip.webm'), FileType.video),
    file(4, 'big.bin', big, FileType.video),
    file(5, 'Moment.HEIC', live, FileType.livePhoto),
    file(6, 'SUNSET.JPG', fixture('shapes.png')),
  ];
  const bytes = new Map<number, Uint8Array>([
    [1, fixture('sunset-exif-gps.jpg')],
    [2, fixture('sunset-exif-gps-duplicate.jpg')],
    [3, fixture('clip.webm')],
    [4, big],
    [5, live],
    [6, fixture('shapes.png')],
  ]);
  const { open, events } = originals(bytes);
  const progress: DownloadProgress[] = [];
  const zip = new Uint8Array(
    await new Response(await zipStream(files, { open, onProgress: (p) => progress.push(p) })).arrayBuffer(),
  );

  const expected = [
    ['sunset.jpg', fixture('sunset-exif-gps.jpg'), 1],
    ['sunset (2).jpg', fixture('sunset-exif-gps-duplicate.jpg'), 2],
    ['._._clip.webm', fixture('clip.webm'), 3],
    ['big.bin', big, 4],
    ['Moment.jpg', fixture('live/live-moment.jpg'), 5],
    ['Moment.mov', fixture('live/live-moment.mov'), 5],
    ['SUNSET (3).JPG', fixture('shapes.png'), 6],
  ] as const;
  const entries = await readZipEntries(zip);
  expect(entries.map((entry) => entry.name)).toEqual(expected.map(([name]) => name));
  const listed = directory(zip);
  expected.forEach(([name, original, id], i) => {
    expect(Buffer.from(entries[i]?.bytes ?? []).equals(Buffer.from(original))).toBe(true);
    const time = evenSeconds(new Date(createdAt(id) / 1000));
    expect(listed[i]).toEqual({ name, crc: crc32(original), time });
  });

  // One original at a time: each opened only once the one before was read to its end.
  expect(events).toEqual([1, 2, 3, 4, 5, 6].flatMap((id) => [`open ${id}`, `end ${id}`]));

  const last = progress.at(-1);
  const total = [...bytes.values()].reduce((sum, b) => sum + b.length, 0);
  expect(last).toEqual({ filesDone: 6, filesTotal: 6, bytesDone: total, bytesTotal: total });
  expect(progress.map((p) => p.bytesDone)).toEqual([...progress.map((p) => p.bytesDone)].sort((a, b) => a - b));
});

test('a live photo is read from the ZIP Ente writes (entries image.* and video.*), named from the title', async () => {
  const parts = await livePhotoFiles(await livePhotoZip(), 'IMG_0001.HEIC');
  expect(parts.map((part) => part.name)).toEqual(['IMG_0001.jpg', 'IMG_0001.mov']);
  expect(Buffer.from(parts[1]?.bytes ?? []).equals(Buffer.from(fixture('live/live-moment.mov')))).toBe(true);
  await expect(livePhotoFiles(new Uint8Array(100), 'x.jpg')).rejects.toThrow('not a ZIP');
});

test('a cancel stops the ZIP: it errors with the reason and no further original is opened', async () => {
  const controller = new AbortController();
  const files = [1, 2, 3].map((id) => file(id, `${id}.bin`, new Uint8Array(300_000)));
  const { open, events } = originals(new Map(files.map((f) => [f.id, new Uint8Array(300_000)])));
  const stream = await zipStream(files, {
    open,
    signal: controller.signal,
    onProgress: (p) => {
      if (p.bytesDone >= 100_000) controller.abort(new Error('cancelled by the person'));
    },
  });
  await expect(new Response(stream).arrayBuffer()).rejects.toThrow('cancelled by the person');
  expect(events).toEqual(['open 1']);
});

test('an original that fails errors the ZIP', async () => {
  const files = [file(1, 'a.jpg', new Uint8Array(10)), file(2, 'missing.jpg', new Uint8Array(10))];
  const { open } = originals(new Map([[1, new Uint8Array(10)]]));
  await expect(new Response(await zipStream(files, { open })).arrayBuffer()).rejects.toThrow('no original 2');
});

test('with onSkip, an original that cannot be fetched or opened is left out and told, and the ZIP goes on', async () => {
  const a = new Uint8Array(randomBytes(200_000));
  const c = new Uint8Array(randomBytes(1000));
  const live = new Uint8Array(randomBytes(300));
  const files = [
    file(1, 'a.jpg', a),
    file(2, 'missing.jpg', new Uint8Array(50)),
    file(3, 'broken.jpg', new Uint8Array(70)),
    file(4, 'c.jpg', c),
    file(5, 'not-a-zip.heic', live, FileType.livePhoto),
  ];
  const { open: openKnown } = originals(
    new Map([
      [1, a],
      [4, c],
      [5, live],
    ]),
  );
  // File 3 opens, but its first chunk fails (as a wrong key fails the first chunk's decryption).
  const open = (requested: DownloadableFile) =>
    requested.id === 3
      ? Promise.resolve(
          new ReadableStream<Uint8Array>({
            pull: (controller) => controller.error(new Error('does not decrypt')),
          }),
        )
      : openKnown(requested);
  const skipped: [string, string][] = [];
  const started: string[] = [];
  const progress: DownloadProgress[] = [];
  const zip = new Uint8Array(
    await new Response(
      await zipStream(files, {
        open,
        onProgress: (p) => progress.push(p),
        onFile: (each) => started.push(each.metadata.title),
        onSkip: (each, error) => skipped.push([each.metadata.title, (error as Error).message]),
      }),
    ).arrayBuffer(),
  );
  const entries = await readZipEntries(zip);
  expect(entries.map((entry) => entry.name)).toEqual(['a.jpg', 'c.jpg']);
  expect(Buffer.from(entries[1]?.bytes ?? []).equals(Buffer.from(c))).toBe(true);
  expect(started).toEqual(['a.jpg', 'missing.jpg', 'broken.jpg', 'c.jpg', 'not-a-zip.heic']);
  expect(skipped).toEqual([
    ['missing.jpg', 'no original 2'],
    ['broken.jpg', 'does not decrypt'],
    ['not-a-zip.heic', 'not a ZIP'],
  ]);
  // Every file is done with; the bytes of those left out are neither done nor expected.
  const total = a.length + c.length;
  expect(progress.at(-1)).toEqual({ filesDone: 5, filesTotal: 5, bytesDone: total, bytesTotal: total });
});

test('with onSkip, a ZIP whose every original fails errors, and a cancel is no skip', async () => {
  const files = [file(1, 'a.jpg', new Uint8Array(10)), file(2, 'b.jpg', new Uint8Array(10))];
  const { open } = originals(new Map());
  const onSkip = jest.fn();
  await expect(new Response(await zipStream(files, { open, onSkip })).arrayBuffer()).rejects.toThrow('no original 2');
  expect(onSkip).toHaveBeenCalledTimes(1);

  const controller = new AbortController();
  const present = originals(new Map([[2, new Uint8Array(10)]]));
  const cancelling = (requested: DownloadableFile) => {
    controller.abort(new Error('cancelled by the person'));
    return present.open(requested);
  };
  const skips = jest.fn();
  const stream = await zipStream(files, { open: cancelling, signal: controller.signal, onSkip: skips });
  await expect(new Response(stream).arrayBuffer()).rejects.toThrow('cancelled by the person');
  expect(skips).not.toHaveBeenCalled();
});

test("an entry's time is the edited creation time when there is one, else the metadata's", () => {
  const taken = file(1, 'a.jpg', new Uint8Array(1));
  expect(creationDate(taken)).toEqual(new Date(createdAt(1) / 1000));
  expect(creationDate({ ...taken, editedTime: Date.UTC(2001, 0, 2) * 1000 })).toEqual(new Date(Date.UTC(2001, 0, 2)));
});

/** A ZIP of one entry written by hand (so its sizes can lie), deflated (method 8) or stored (0). */
function oneEntryZip(
  name: string,
  method: 0 | 8,
  data: Uint8Array,
  claimedSize = data.length,
): Uint8Array<ArrayBuffer> {
  return sharedDataZip([name], method, data, claimedSize);
}

/** A ZIP whose directory lists every name of `names`, all pointing at one entry's bytes (a crafted ZIP). */
function sharedDataZip(
  names: readonly string[],
  method: 0 | 8,
  data: Uint8Array,
  claimedSize = data.length,
): Uint8Array<ArrayBuffer> {
  const encoded = names.map((name) => new TextEncoder().encode(name));
  const first = encoded[0] ?? new Uint8Array();
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(method, 8);
  local.writeUInt32LE(claimedSize, 18);
  local.writeUInt16LE(first.length, 26);
  const directories = encoded.map((nameBytes) => {
    const directory = Buffer.alloc(46);
    directory.writeUInt32LE(0x02014b50, 0);
    directory.writeUInt16LE(method, 10);
    directory.writeUInt32LE(claimedSize, 20);
    directory.writeUInt16LE(nameBytes.length, 28);
    directory.writeUInt32LE(0, 42);
    return Buffer.concat([directory, nameBytes]);
  });
  const directoryAt = 30 + first.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(
    directories.reduce((sum, directory) => sum + directory.length, 0),
    12,
  );
  end.writeUInt32LE(directoryAt, 16);
  return new Uint8Array(Buffer.concat([local, first, data, ...directories, end]));
}

test('a ZIP of many entries over one deflated stream: only the image and the video are inflated, within a total', async () => {
  const part = 70 * 1024 * 1024;
  const stream = deflateRawSync(Buffer.alloc(part));
  const names = ['image.jpg', 'video.mov', ...Array.from({ length: 14 }, (_, i) => `image-${String(i)}.jpg`)];
  const files = await livePhotoFiles(sharedDataZip(names, 8, stream), 'Live.HEIC');
  expect(files.map(({ name, bytes }) => [name, bytes.length])).toEqual([
    ['Live.jpg', part],
    ['Live.mov', part],
  ]);
  // Reading every entry stops once they weigh more than twice the entry cap together (here at the third).
  expect(3 * part).toBeGreaterThan(LIVE_PHOTO_MAX_INFLATED_BYTES);
  await expect(readZipEntries(sharedDataZip(names, 8, stream))).rejects.toThrow('larger than');
  const stored = new Uint8Array(80 * 1024 * 1024);
  await expect(readZipEntries(sharedDataZip(['a', 'b', 'c'], 0, stored))).rejects.toThrow('larger than');
  // A directory of more than 16 entries is refused before anything is read.
  const many = [...names, 'video-2.mov'];
  await expect(livePhotoFiles(sharedDataZip(many, 8, stream), 'Live.HEIC')).rejects.toThrow('more than 16 entries');
});

test('a live photo entry that inflates past the cap (a ZIP bomb) is refused; so is one said to reach past the ZIP', async () => {
  const bomb = deflateRawSync(Buffer.alloc(LIVE_PHOTO_MAX_ENTRY_BYTES + 1));
  await expect(readZipEntries(oneEntryZip('video.mov', 8, bomb))).rejects.toThrow('larger than');
  const fits = deflateRawSync(Buffer.from('a small entry'));
  expect((await readZipEntries(oneEntryZip('image.jpg', 8, fits)))[0]?.bytes).toEqual(
    new Uint8Array(Buffer.from('a small entry')),
  );
  const stored = new Uint8Array(100);
  await expect(readZipEntries(oneEntryZip('image.jpg', 0, stored, 5_000_000))).rejects.toThrow('damaged ZIP entry');
});

test('a live photo original past the cap is refused: by its size before it is opened, else once its bytes pass it', async () => {
  const opened: number[] = [];
  const huge = { ...file(7, 'Live.HEIC', new Uint8Array(1), FileType.livePhoto), fileSize: LIVE_PHOTO_MAX_BYTES + 1 };
  const open = (requested: DownloadableFile) => {
    opened.push(requested.id);
    return Promise.resolve(new Blob([new Uint8Array(1)]).stream());
  };
  await expect(new Response(await zipStream([huge], { open })).arrayBuffer()).rejects.toThrow('larger than');
  expect(opened).toEqual([]);
  // No size from the server: the bytes are counted, and reading stops past the cap.
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      controller.enqueue(new Uint8Array(8 * 1024 * 1024));
    },
  });
  await expect(readLivePhoto(endless)).rejects.toThrow('larger than');
  expect(pulled * 8 * 1024 * 1024).toBeLessThan(LIVE_PHOTO_MAX_BYTES + 3 * 8 * 1024 * 1024);
});
