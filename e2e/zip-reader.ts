// A small reader of the ZIPs the photos app writes (stored entries, sizes in the central directory), for browser
// tests that check a download byte for byte. Deflated entries go through node:zlib; ZIP64 is refused (the
// tests' files are small), so a ZIP that needs it fails loudly instead of being misread.
import { inflateRawSync } from 'node:zlib';

export interface ZipFileEntry {
  name: string;
  bytes: Buffer;
  /** The CRC-32 the directory gives (checked against the bytes by the caller, node:zlib's crc32). */
  crc32: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

export function readZip(zip: Buffer): ZipFileEntry[] {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== END_OF_DIRECTORY) end--;
  if (end < 0) throw new Error('not a ZIP: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipFileEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new Error(`damaged central directory at ${String(at)}`);
    const method = zip.readUInt16LE(at + 10);
    const crc32 = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const otherLengths = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if ([compressedSize, size, local].includes(0xffffffff)) throw new Error('ZIP64 entries are not read here');
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + otherLengths;
    if (name.endsWith('/')) continue;
    if (zip.readUInt32LE(local) !== LOCAL_HEADER) throw new Error(`damaged local header of entry ${String(i)}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressedSize);
    if (method !== 0 && method !== 8) throw new Error(`compression method ${String(method)}`);
    const bytes = method === 0 ? Buffer.from(data) : inflateRawSync(data);
    if (bytes.length !== size)
      throw new Error(`entry ${String(i)}: ${String(bytes.length)} bytes, directory says ${String(size)}`);
    entries.push({ name, bytes, crc32 });
  }
  return entries;
}
