// Live photos (docs/protocol.md#photos-client-encryption): an image and a short video of the same moment, as a
// phone exports them side by side ("IMG_1.HEIC" and "IMG_1.MOV"), uploaded as one item whose file is a ZIP of
// the two. Pure: which picked files pair up, and the ZIP's entry names. The ZIP itself is written in the upload
// worker (file-job.ts).
import { FileType } from '../library/types.ts';
import { fileTypeOf } from './metadata.ts';
import type { LivePhotoParts } from './types.ts';

/** Each part of a live photo is at most this large (Ente's clients pair nothing larger). */
export const LIVE_PHOTO_PART_MAX_BYTES = 20 * 1024 * 1024;
/** The two parts' file times are at most this far apart. */
export const LIVE_PHOTO_MAX_APART_MS = 24 * 60 * 60 * 1000;

/** A file as picked, with its path in what was chosen ("Trip/IMG_1.HEIC"). */
export interface PathedFile {
  file: File;
  relativePath: string;
}

/** What one picked item uploads: a file or a live photo, with the path that says where it sat. */
export interface PickedInput {
  input: File | LivePhotoParts;
  relativePath: string;
}

const splitName = (name: string): [stem: string, extension: string] => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
};

const folderOf = (relativePath: string) => relativePath.slice(0, Math.max(0, relativePath.lastIndexOf('/')));

/**
 * The name both parts of a pair share: the stem, and for a video also the stem without the suffixes exporters
 * add to it ("IMG_1_HEVC.MOV", "IMG_1.HEIC.MOV" pair with "IMG_1.HEIC").
 */
function pairingStems(name: string, fileType: FileType): string[] {
  const [stem] = splitName(name);
  if (fileType !== FileType.video) return [stem];
  const stems = [stem];
  const withoutSuffix = stem.replace(/_HEVC$/i, '');
  if (withoutSuffix !== stem) stems.push(withoutSuffix);
  const [inner, innerExtension] = splitName(withoutSuffix);
  if (innerExtension && fileTypeOf(withoutSuffix, '') === FileType.image) stems.push(inner);
  return stems;
}

/**
 * The picked files with live photos paired: an image and a video in the same folder sharing a name (see
 * `pairingStems`), each within 20 MB and their times within a day, become one live photo. Where a name is shared
 * by more than one image or more than one video, none of them pair (which would be a guess). Order is kept: a pair
 * takes its image's place.
 */
export function pairLivePhotos(picked: readonly PathedFile[]): PickedInput[] {
  const images = new Map<string, PathedFile[]>();
  const videos = new Map<string, PathedFile[]>();
  for (const entry of picked) {
    const fileType = fileTypeOf(entry.file.name, entry.file.type);
    if (entry.file.size > LIVE_PHOTO_PART_MAX_BYTES) continue;
    const into = fileType === FileType.image ? images : fileType === FileType.video ? videos : undefined;
    if (!into || fileType === undefined) continue;
    for (const stem of pairingStems(entry.file.name, fileType)) {
      const key = `${folderOf(entry.relativePath)}/${stem}`;
      into.set(key, [...(into.get(key) ?? []), entry]);
    }
  }

  const videoOf = new Map<PathedFile, PathedFile>();
  const paired = new Set<PathedFile>();
  for (const [key, sameImages] of images) {
    const sameVideos = videos.get(key) ?? [];
    const [image] = sameImages;
    const [video] = sameVideos;
    if (sameImages.length !== 1 || sameVideos.length !== 1 || !image || !video) continue;
    if (paired.has(image) || paired.has(video)) continue;
    if (Math.abs(image.file.lastModified - video.file.lastModified) > LIVE_PHOTO_MAX_APART_MS) continue;
    videoOf.set(image, video);
    paired.add(image).add(video);
  }

  const inputs: PickedInput[] = [];
  for (const entry of picked) {
    const video = videoOf.get(entry);
    if (video) inputs.push({ input: { image: entry.file, video: video.file }, relativePath: entry.relativePath });
    else if (!paired.has(entry)) inputs.push({ input: entry.file, relativePath: entry.relativePath });
  }
  return inputs;
}

/** The ZIP entries of a live photo as Ente's clients name them: `image.<ext>` and `video.<ext>` (stored). */
export function livePhotoZipEntries(
  image: File,
  video: File,
): [{ name: string; lastModified: Date; size: number }, { name: string; lastModified: Date; size: number }] {
  const entry = (prefix: string, file: File) => ({
    name: prefix + splitName(file.name)[1],
    lastModified: new Date(file.lastModified),
    size: file.size,
  });
  return [entry('image', image), entry('video', video)];
}
