// For tests only: library files and albums as the components take them, with only what a test cares about set.
import { FileType, type Album, type AlbumLink, type GalleryFile } from '../../library/types.ts';

/** A file taken at local `date`, titled `IMG_<id>.jpg` unless `extra` says otherwise. */
export function fileAt(id: number, date: Date, extra: Partial<GalleryFile> = {}): GalleryFile {
  return {
    id,
    ownerID: 1,
    collectionIDs: [1],
    key: 'k',
    fileHeader: 'h',
    thumbnailHeader: 't',
    metadata: {
      title: `IMG_${id}.jpg`,
      creationTime: date.getTime() * 1000,
      modificationTime: date.getTime() * 1000,
      fileType: FileType.image,
    },
    updationTime: 1,
    ...extra,
  };
}

/** A file of `fileType` (a video, a live photo) taken at local `date`, titled `title`. */
export function fileOfType(id: number, date: Date, title: string, fileType: FileType): GalleryFile {
  const file = fileAt(id, date);
  return { ...file, metadata: { ...file.metadata, title, fileType } };
}

/** `count` files, one a minute going back from `newest`. */
export function manyFiles(count: number, newest = new Date(2025, 5, 1, 12)): GalleryFile[] {
  return Array.from({ length: count }, (_, i) => fileAt(i + 1, new Date(newest.getTime() - i * 60_000)));
}

/** An album of the signed-in user (id 1). */
export function albumOf(id: number, name: string, extra: Partial<Album> = {}): Album {
  const owner = { id: 1, email: 'me@example.org', role: 'OWNER' as const };
  return { id, name, type: 'album', owner, role: 'OWNER', key: 'k', sharees: [], updationTime: id, ...extra };
}

/** An album's public link as its owner sees it: no password, downloads allowed, no expiry, no device limit. */
export function linkOf(extra: Partial<AlbumLink> = {}): AlbumLink {
  const url = 'https://photos.example/shared-albums?t=ABCDEFGH23';
  return {
    url,
    passwordEnabled: false,
    enableDownload: true,
    enableCollect: false,
    validTill: 0,
    deviceLimit: 0,
    ...extra,
  };
}
