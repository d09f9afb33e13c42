// A live photo's original is a ZIP holding its image and its video (docs/protocol.md#photos-client-encryption),
// entries named `image.<ext>` and `video.<ext>` by Ente's clients. A download gives the two files, named from the
// title's stem with each entry's extension. Live photos are small (each part ≤ 20 MB), so the ZIP is read whole, up
// to a cap; entries are stored or deflated (read with DecompressionStream, each capped once inflated); ZIP64 is not
// needed at that size.

import { readAtMost } from '../media/read-at-most.ts';
import { splitExtension } from './zip-names.ts';

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

const tooLarge = (what: string, limit: number) => new Error(`${what} is larger than ${limit} bytes`);

function inflateRaw(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return readAtMost(stream, LIVE_PHOTO_MAX_ENTRY_BYTES, () =>
    tooLarge('a live photo entry', LIVE_PHOTO_MAX_ENTRY_BYTES),
  );
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

/** The files of a ZIP held in memory (stored or deflated entries; folders left out). */
export async function readZipEntries(zip: Uint8Array<ArrayBuffer>): Promise<ZipEntry[]> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== END_OF_DIRECTORY) end--;
  if (end < 0) throw new Error('not a ZIP');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error('damaged ZIP directory');
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skipped = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + skipped;
    if (name.endsWith('/')) continue;
    if (local + 30 > zip.length || view.getUint32(local, true) !== LOCAL_HEADER) throw new Error('damaged ZIP entry');
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    // An entry must lie within the ZIP: a slice would silently cut it short.
    if (start + compressedSize > zip.length) throw new Error('damaged ZIP entry');
    const data = zip.slice(start, start + compressedSize);
    if (method !== 0 && method !== 8) throw new Error('unsupported ZIP compression');
    entries.push({ name, bytes: method === 0 ? data : await inflateRaw(data) });
  }
  return entries;
}

/** The image and the video of a live photo's ZIP, named `<title's stem>.<entry's extension>` (image first). */
export async function livePhotoFiles(zip: Uint8Array<ArrayBuffer>, title: string): Promise<ZipEntry[]> {
  const [stem] = splitExtension(title);
  const entries = await readZipEntries(zip);
  const part = (prefix: string) => entries.find((entry) => entry.name.toLowerCase().startsWith(prefix));
  const image = part('image');
  const video = part('video');
  if (!image || !video) throw new Error('a live photo without its image or its video');
  return [image, video].map(({ name, bytes }) => ({ name: stem + splitExtension(name)[1], bytes }));
}
