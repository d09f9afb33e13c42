// EXIF of an image, read in the upload worker with exifreader (loaded on first use): only the tags the metadata
// needs (dates, offsets, GPS), from the first MiB of the file, where JPEG, HEIC and the rest keep them. Asking
// for these tags only also keeps exifreader off XMP, which needs a DOMParser that workers do not have.
import { exifFacts, type ExifFacts, type ExifTags } from './metadata.ts';

const EXIF_HEAD_BYTES = 1024 * 1024;

const wanted = {
  exif: [
    'DateTimeOriginal',
    'OffsetTimeOriginal',
    'DateTimeDigitized',
    'OffsetTimeDigitized',
    'GPSLatitude',
    'GPSLatitudeRef',
    'GPSLongitude',
    'GPSLongitudeRef',
  ],
  gps: true,
} as const;

/** The EXIF facts of an image; none when it has no EXIF or exifreader cannot read it. */
export async function readExif(file: Blob, timeZoneOffsetMinutes?: (localMs: number) => number): Promise<ExifFacts> {
  try {
    const { load } = await import('exifreader');
    const head = await file.slice(0, EXIF_HEAD_BYTES).arrayBuffer();
    const tags = (await load(head, {
      expanded: true,
      async: true,
      includeTags: { exif: [...wanted.exif], gps: wanted.gps },
    })) as ExifTags;
    return exifFacts(tags, timeZoneOffsetMinutes);
  } catch {
    return {};
  }
}
