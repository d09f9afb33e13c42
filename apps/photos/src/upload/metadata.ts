// The metadata of a new file (library/types.ts FileMetadata; docs/protocol.md#photos-client-encryption): its
// type from the MIME type or the extension, its creation time from EXIF when the photo has one (else the file's
// modification time), its place from EXIF GPS. Pure; the EXIF tags are read in the worker.
import { FileType, type FileMetadata } from '../library/types.ts';

const imageExtensions = new Set(
  'jpg jpeg jpe jfif png gif webp avif heic heif bmp tif tiff jxl dng cr2 cr3 nef arw raf orf rw2 srw pef'.split(' '),
);
const videoExtensions = new Set('mp4 m4v mov qt webm mkv avi 3gp 3g2 wmv mpg mpeg mts m2ts ogv'.split(' '));

/** The metadata `fileType` of a file by its MIME type, else its extension; undefined when neither tells. */
export function fileTypeOf(name: string, mimeType: string): FileType | undefined {
  if (mimeType.startsWith('image/')) return FileType.image;
  if (mimeType.startsWith('video/')) return FileType.video;
  const extension = /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (imageExtensions.has(extension)) return FileType.image;
  if (videoExtensions.has(extension)) return FileType.video;
  return undefined;
}

/** What the worker found in a photo's EXIF. Times µs since the epoch. */
export interface ExifFacts {
  creationTime?: number;
  latitude?: number;
  longitude?: number;
}

/** The few EXIF tags we read, as exifreader's expanded form gives them. */
export interface ExifTags {
  exif?: {
    DateTimeOriginal?: { description?: string };
    OffsetTimeOriginal?: { description?: string };
    DateTimeDigitized?: { description?: string };
    OffsetTimeDigitized?: { description?: string };
  };
  gps?: { Latitude?: number; Longitude?: number };
}

/** Creation time and place from EXIF tags; a field is absent when its tag is missing or nonsense. */
export function exifFacts(tags: ExifTags, timeZoneOffsetMinutes?: (localMs: number) => number): ExifFacts {
  const facts: ExifFacts = {};
  const original = tags.exif?.DateTimeOriginal?.description;
  const digitized = tags.exif?.DateTimeDigitized?.description;
  const ms =
    parseExifDate(original, tags.exif?.OffsetTimeOriginal?.description, timeZoneOffsetMinutes) ??
    parseExifDate(digitized, tags.exif?.OffsetTimeDigitized?.description, timeZoneOffsetMinutes);
  if (ms !== undefined) facts.creationTime = ms * 1000;
  const { Latitude: latitude, Longitude: longitude } = tags.gps ?? {};
  if (isCoordinate(latitude, 90) && isCoordinate(longitude, 180) && !(latitude === 0 && longitude === 0)) {
    facts.latitude = latitude;
    facts.longitude = longitude;
  }
  return facts;
}

function isCoordinate(value: number | undefined, bound: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= bound;
}

/**
 * An EXIF date ("YYYY:MM:DD HH:MM:SS", optionally followed by fractions) as ms since the epoch: at its offset
 * ("+02:00") when one is given, else in the uploading browser's time zone (EXIF 2.2 has no zone, and the
 * camera's clock is most likely the person's). Undefined for blanks and impossible dates ("0000:00:00 …").
 */
export function parseExifDate(
  text: string | undefined,
  offset?: string,
  timeZoneOffsetMinutes: (localMs: number) => number = (localMs) => -new Date(localMs).getTimezoneOffset(),
): number | undefined {
  const match = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text?.trim() ?? '');
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1800 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return undefined;
  }
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const zone = /^([+-])(\d{2}):?(\d{2})$/.exec(offset?.trim() ?? '');
  if (zone) {
    const minutes = (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3]));
    return asUtc - minutes * 60_000;
  }
  return asUtc - timeZoneOffsetMinutes(asUtc) * 60_000;
}

/** What is known of a file before its metadata is sealed. */
export interface MetadataInput {
  name: string;
  fileType: FileType;
  /** `File.lastModified`, ms. */
  lastModified: number;
  /** BLAKE2b-512 of the file, b64; for a live photo, of its image and of its video. */
  hash: string | { imageHash: string; videoHash: string };
  exif?: ExifFacts;
}

/**
 * The metadata JSON of a new file (µs times; `creationTime` from EXIF, else the modification time). A live photo's
 * are its image's (name, time, EXIF), with `imageHash` and `videoHash` instead of `hash`.
 */
export function buildFileMetadata({ name, fileType, lastModified, hash, exif }: MetadataInput): FileMetadata {
  const modificationTime = Math.round(lastModified) * 1000;
  const metadata: FileMetadata = {
    title: name,
    creationTime: exif?.creationTime ?? modificationTime,
    modificationTime,
    fileType,
    ...(typeof hash === 'string' ? { hash } : hash),
  };
  if (exif?.latitude !== undefined && exif.longitude !== undefined) {
    metadata.latitude = exif.latitude;
    metadata.longitude = exif.longitude;
  }
  return metadata;
}

/** The public magic metadata a new file starts with: its picture's size (`w`, `h`) when known. */
export function buildPublicMetadata(size: { width?: number; height?: number }): { w: number; h: number } | undefined {
  const { width, height } = size;
  return width && height ? { w: width, h: height } : undefined;
}
