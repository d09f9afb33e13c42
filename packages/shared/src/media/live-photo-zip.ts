// A live photo's original is a ZIP holding its image and its video (docs/protocol.md#photos-client-encryption),
// entries named `image.<ext>` and `video.<ext>` by Ente's clients; the photos app downloads and plays both, the cast
// screen shows the image. Live photos are small (each part ≤ 20 MB), so the ZIP is read whole, up to a cap; entries
// are stored or deflated (read with DecompressionStream, each capped once inflated, all of them together too); only
// the entries asked for are read, from a directory of a few entries; ZIP64 is not needed at that size.

import { readAtMost } from './read-at-most.ts';

export interface ZipEntry {
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/**
 * Caps on what a live photo may weigh (Ente's clients keep each part within 20 MB): its original, read whole, and
 * each entry once inflated. Its ZIP is written by whoever uploaded it, so a deflated entry could otherwise inflate
 * to gigabytes from a few megabytes (a ZIP bomb) and take the tab down.
 */
export const LIVE_PHOTO_MAX_BYTES = 100 * 1024 * 1024;
export const LIVE_PHOTO_MAX_ENTRY_BYTES = 100 * 1024 * 1024;

/**
 * A live photo's ZIP holds two entries; its directory may list at most this many (a folder entry or two of
 * another writer's fit). Every entry is named by its uploader and may point at the same bytes as the others: a
 * directory of thousands of entries over one deflated stream would otherwise ask for terabytes.
 */
const LIVE_PHOTO_MAX_ENTRIES = 16;
/** What all the entries of one ZIP may weigh once inflated (or stored), together. */
export const LIVE_PHOTO_MAX_INFLATED_BYTES = 2 * LIVE_PHOTO_MAX_ENTRY_BYTES;

const tooLarge = (what: string, limit: number) => new Error(`${what} is larger than ${limit} bytes`);

function inflateRaw(bytes: Uint8Array<ArrayBuffer>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return readAtMost(stream, limit, () => tooLarge('a live photo entry', limit));
}

/**
 * A live photo's original read whole from its stream: refused before any read when the server's encrypted size
 * (`fileSize`) is already past the cap, else erroring once the bytes pass it.
 */
export async function readLivePhoto(
  stream: ReadableStream<Uint8Array>,
  fileSize?: number,
): Promise<Uint8Array<ArrayBuffer>> {
  try {
    refuseLargeLivePhoto(fileSize);
  } catch (e) {
    await stream.cancel().catch(() => undefined);
    throw e;
  }
  return readAtMost(stream, LIVE_PHOTO_MAX_BYTES, () => tooLarge('a live photo', LIVE_PHOTO_MAX_BYTES));
}

/** Throws when the server's encrypted size of a live photo is past the cap (called before its original is opened). */
export function refuseLargeLivePhoto(fileSize: number | undefined): void {
  if (fileSize !== undefined && fileSize > LIVE_PHOTO_MAX_BYTES) {
    throw tooLarge('a live photo', LIVE_PHOTO_MAX_BYTES);
  }
}

/** A file entry of a ZIP's directory, not yet read: its name, method and where its bytes lie in the ZIP. */
interface DirectoryEntry {
  name: string;
  method: number;
  start: number;
  size: number;
}

/** The file entries listed by a ZIP's central directory (folders left out); none is read or inflated here. */
function zipDirectory(zip: Uint8Array<ArrayBuffer>): DirectoryEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== END_OF_DIRECTORY) end--;
  if (end < 0) throw new Error('not a ZIP');
  const count = view.getUint16(end + 10, true);
  if (count > LIVE_PHOTO_MAX_ENTRIES)
    throw new Error(`a live photo ZIP of more than ${LIVE_PHOTO_MAX_ENTRIES} entries`);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  const entries: DirectoryEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error('damaged ZIP directory');
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skipped = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + skipped;
    if (name.endsWith('/')) continue;
    if (local + 30 > zip.length || view.getUint32(local, true) !== LOCAL_HEADER) throw new Error('damaged ZIP entry');
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    // An entry must lie within the ZIP: a slice would silently cut it short.
    if (start + size > zip.length) throw new Error('damaged ZIP entry');
    if (method !== 0 && method !== 8) throw new Error('unsupported ZIP compression');
    entries.push({ name, method, start, size });
  }
  return entries;
}

/** The entries' bytes, each within the entry cap and all together within LIVE_PHOTO_MAX_INFLATED_BYTES. */
async function readEntries(zip: Uint8Array<ArrayBuffer>, listed: readonly DirectoryEntry[]): Promise<ZipEntry[]> {
  let left = LIVE_PHOTO_MAX_INFLATED_BYTES;
  const entries: ZipEntry[] = [];
  for (const { name, method, start, size } of listed) {
    const limit = Math.min(LIVE_PHOTO_MAX_ENTRY_BYTES, left);
    if (method === 0 && size > limit) throw tooLarge('a live photo entry', limit);
    const data = zip.slice(start, start + size);
    const bytes = method === 0 ? data : await inflateRaw(data, limit);
    left -= bytes.length;
    entries.push({ name, bytes });
  }
  return entries;
}

/** The files of a ZIP held in memory (stored or deflated entries; folders left out), within a live photo's caps. */
export async function readZipEntries(zip: Uint8Array<ArrayBuffer>): Promise<ZipEntry[]> {
  return readEntries(zip, zipDirectory(zip));
}

/** The image and the video entries of a live photo's ZIP (as named in it), only those two read. */
export async function livePhotoParts(zip: Uint8Array<ArrayBuffer>): Promise<{ image: ZipEntry; video: ZipEntry }> {
  const listed = zipDirectory(zip);
  const image = livePhotoPart(listed, 'image');
  const video = livePhotoPart(listed, 'video');
  const [imageEntry, videoEntry] = await readEntries(zip, [image, video]);
  return { image: imageEntry as ZipEntry, video: videoEntry as ZipEntry };
}

/** The image entry of a live photo's ZIP alone (the video is neither read nor inflated). */
export async function livePhotoImage(zip: Uint8Array<ArrayBuffer>): Promise<ZipEntry> {
  const [image] = await readEntries(zip, [livePhotoPart(zipDirectory(zip), 'image')]);
  return image as ZipEntry;
}

/** The first entry named `<prefix>…` (any case); a live photo has an image and a video. */
function livePhotoPart(listed: readonly DirectoryEntry[], prefix: 'image' | 'video'): DirectoryEntry {
  const found = listed.find((entry) => entry.name.toLowerCase().startsWith(prefix));
  if (!found) throw new Error('a live photo without its image or its video');
  return found;
}
