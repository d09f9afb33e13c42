// The upload's public types: what a caller hands in (files and a target album), what each file ends as,
// and the one error class, whose `reason` pages translate. Shared by the main thread and the upload worker.
import type { PhotoFile } from '@ente/protocol';

/** The album files go to: its id and its collection key (b64, from the library). */
export interface UploadTarget {
  collectionID: number;
  collectionKey: string;
}

/**
 * A live photo's two files (docs/protocol.md#photos-client-encryption), uploaded as one item: the ZIP of both
 * is its file, the image gives its title, thumbnail and EXIF.
 */
export interface LivePhotoParts {
  image: File;
  video: File;
}

/** What the queue takes for one item: a file, or a live photo's image and video. */
export type UploadInput = File | LivePhotoParts;

/** The live photo's parts when `input` is one. */
export function livePhotoPartsOf(input: UploadInput): LivePhotoParts | undefined {
  return 'image' in input && 'video' in input ? input : undefined;
}

/** How one file ended (docs/decisions.md#the-photos-app, duplicates). */
export type UploadOutcome =
  /** Encrypted, uploaded and confirmed: the file as POST /files answered it. */
  | { kind: 'uploaded'; file: PhotoFile }
  /** The album already holds a file of the same hash, title and type: nothing sent. */
  | { kind: 'skipped'; existingFileID: number }
  /** Another album of the user holds it: added to the target with POST /collections/add-files, not uploaded. */
  | { kind: 'added'; existingFileID: number };

/** Why a file did not upload. */
export type UploadErrorReason =
  /** Neither an image nor a video the app knows. */
  | 'unsupported'
  /** Over the server's 10 GiB, or too large to stage in this browser. */
  | 'tooLarge'
  /** The account's storage is full (426). */
  | 'storageLimit'
  /** No answer (offline, the object store unreachable or refusing CORS). */
  | 'network'
  /** The server or the object store refused or failed. */
  | 'server'
  /** The file could not be read (moved, deleted, permission lost). */
  | 'unreadable'
  | 'cancelled'
  /** Anything else (a bug): the message says what. */
  | 'unknown';

export class UploadError extends Error {
  override name = 'UploadError';
  constructor(
    readonly reason: UploadErrorReason,
    message?: string,
  ) {
    super(message ?? `upload failed (${reason})`);
  }
}

/** The stage a file is at; `done`, `failed` and `cancelled` are final until a retry. */
export type UploadStatus =
  'queued' | 'hashing' | 'encrypting' | 'uploading' | 'finishing' | 'done' | 'failed' | 'cancelled';

/** `error` as an UploadError: itself, a cancellation when `signal` was aborted, else `unknown`. */
export function asUploadError(error: unknown, signal?: AbortSignal): UploadError {
  if (error instanceof UploadError) return error;
  if (signal?.aborted) return new UploadError('cancelled');
  return new UploadError('unknown', error instanceof Error ? error.message : String(error));
}
