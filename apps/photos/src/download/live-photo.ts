// A live photo's original is a ZIP holding its image and its video (../shared/spec/photos-cast.md "Encryption"),
// entries named `image.<ext>` and `video.<ext>` by Ente's clients. A download gives the two files, named from the
// title's stem with each entry's extension. Live photos are small (each part ≤ 20 MB), so the ZIP is read whole;
// entries are stored or deflated (read with DecompressionStream); ZIP64 is not needed at that size.

import { splitExtension } from './zip-names.ts';

export interface ZipEntry {
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

async function inflateRaw(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
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
    if (view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error('damaged ZIP directory');
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skipped = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + skipped;
    if (name.endsWith('/')) continue;
    if (view.getUint32(local, true) !== LOCAL_HEADER) throw new Error('damaged ZIP entry');
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
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
