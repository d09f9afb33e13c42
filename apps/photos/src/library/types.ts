// The photos library as the app's pages see it once decrypted: albums and files with their names, dates and
// keys opened (docs/protocol.md#photos for the wire shapes these come from). Keys are base64 strings held in
// memory only; nothing here is ever written to browser storage as is.

import type { CollectionRole, CollectionType } from '@ente/protocol';

/** The metadata `fileType` (docs/protocol.md#photos): an image, a video, or a live photo (both in one ZIP). */
export const FileType = { image: 0, video: 1, livePhoto: 2 } as const;
export type FileType = (typeof FileType)[keyof typeof FileType];

/** The decrypted metadata of a file (one secretstream message of JSON under the file key). */
export interface FileMetadata {
  title: string;
  /** When the photo was taken (EXIF, else the file's time), µs since the epoch. */
  creationTime: number;
  /** The original file's last modification, µs. */
  modificationTime: number;
  fileType: FileType;
  /** Base64 of BLAKE2b-512 of the original bytes (images and videos). */
  hash?: string;
  /** For a live photo: the hashes of its image and of its video. */
  imageHash?: string;
  videoHash?: string;
  latitude?: number;
  longitude?: number;
}

/**
 * Hidden from the main views by the user: `archived` (magic metadata `visibility` 1) or `hidden` (2), as Ente's
 * clients write it; absent when visible.
 */
export type Visibility = 'archived' | 'hidden';

/** A file of the library: one per file id, whatever the number of albums holding it. */
export interface GalleryFile {
  id: number;
  ownerID: number;
  /**
   * The albums (collections) of this library that hold it under the same key, the one its key was read from
   * first (an album of the user's own when one holds it).
   */
  collectionIDs: number[];
  /** The file key (base64), opened with the key of the first collection in `collectionIDs`. */
  key: string;
  /** Secretstream headers of the file's object and of its thumbnail (base64). */
  fileHeader: string;
  thumbnailHeader: string;
  metadata: FileMetadata;
  /** Sizes of the encrypted objects when the server knows them (`info`). */
  fileSize?: number;
  thumbnailSize?: number;
  /** From the public magic metadata, when a client wrote them. */
  width?: number;
  height?: number;
  caption?: string;
  /** An edited creation time (public magic metadata `editedTime`), µs; shown instead of metadata's. */
  editedTime?: number;
  /** The latest change the server stamped on it (µs). */
  updationTime: number;
  /** From the owner's private magic metadata (others never see it). */
  visibility?: Visibility;
}

/** A person an album is shared with, or its owner. */
export interface AlbumMember {
  id: number;
  email: string;
  role: CollectionRole;
}

/** The album's live public link, as its owner sees it. */
export interface AlbumLink {
  url: string;
  passwordEnabled: boolean;
  enableDownload: boolean;
  enableCollect: boolean;
  /** µs; 0 never expires. */
  validTill: number;
  deviceLimit: number;
}

/** An album (collection) of the library, its name decrypted. */
export interface Album {
  id: number;
  name: string;
  type: CollectionType;
  owner: AlbumMember;
  /** The signed-in user's role in it: OWNER for their own. */
  role: CollectionRole;
  /** The collection key (base64). */
  key: string;
  sharees: AlbumMember[];
  link?: AlbumLink;
  updationTime: number;
  /** The owner's choice (the collection's magic metadata), or a sharee's own (its shared magic metadata). */
  visibility?: Visibility;
}

/** A file in the trash, with the time it leaves by itself. */
export interface TrashedFile {
  file: GalleryFile;
  /** µs. */
  deleteBy: number;
}
