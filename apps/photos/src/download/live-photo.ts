// A live photo's download: the two files of its ZIP (read by @ente/shared/media/live-photo-zip.ts, within its caps),
// named from the title's stem with each entry's extension. The reader's parts that the photos app uses are
// re-exported from here.
import { livePhotoParts, type ZipEntry } from '@ente/shared/media/live-photo-zip.ts';

import { splitExtension } from './zip-names.ts';

export {
  LIVE_PHOTO_MAX_BYTES,
  LIVE_PHOTO_MAX_ENTRY_BYTES,
  LIVE_PHOTO_MAX_INFLATED_BYTES,
  readLivePhoto,
  readZipEntries,
  refuseLargeLivePhoto,
} from '@ente/shared/media/live-photo-zip.ts';

/** The image and the video of a live photo's ZIP, named `<title's stem>.<entry's extension>` (image first). */
export async function livePhotoFiles(zip: Uint8Array<ArrayBuffer>, title: string): Promise<ZipEntry[]> {
  const [stem] = splitExtension(title);
  const { image, video } = await livePhotoParts(zip);
  return [image, video].map(({ name, bytes }) => ({ name: stem + splitExtension(name)[1], bytes }));
}
