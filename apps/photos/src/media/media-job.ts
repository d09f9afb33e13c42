// The work of the media worker: a thumbnail fetched (or read from the `thumbs` cache, which keeps the
// ENCRYPTED bytes by file id, so nothing plaintext sits in browser storage) and opened as one Blob message
// with the file key; an original fetched and decrypted chunk by chunk while it downloads, answered as a
// ReadableStream. URLs carry the token in the query (`?token=`, docs/protocol.md#photos) so that the 307 to
// the store carries no header; nothing is logged.
// The opening is @ente/crypto's open.ts (@noble/ciphers), not libsodium: this worker never loads libsodium's 187 KiB
// gzip, which a public album's visit could not afford (docs/decisions.md, what a public link's visit loads); it is
// fetched with the first thumbnail or original, so that a password link's visit (which opens only the album's name,
// a Box) loads none of it. Each from its own module: the root @ente/crypto would bring libsodium and modules that run
// code as they load.
import { DecryptionError } from '@ente/crypto/errors.ts';
import type * as Openers from '@ente/crypto/open.ts';
import { capBytes, readAtMost } from '@ente/shared/media/read-at-most.ts';

import { createAlbumJob } from '../public-album/album-job.ts';
import { MediaError } from './errors.ts';
import { typedBlob } from './media-type.ts';
import { THUMBNAIL_MAX_BYTES, VIEWER_ORIGINAL_MAX_BYTES } from './read-at-most.ts';

export const THUMBNAIL_CACHE = 'thumbs';

/** The Blob and Stream openers, fetched once (a chunk of this worker's own); fetched again after a failed fetch. */
let openers: Promise<typeof Openers> | undefined;
const opening = () =>
  (openers ??= import('@ente/crypto/open.ts').catch((error: unknown) => {
    openers = undefined;
    throw error;
  }));

const tooLarge = (limit: number) => () => new MediaError('tooLarge', `more than ${limit} bytes`);

/** The cache key of a file's encrypted thumbnail: a URL no request ever goes to. */
export function thumbnailCacheKey(fileID: number): string {
  return `https://encrypted-thumbnails.invalid/${fileID}`;
}

async function fetchObject(url: string, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch {
    throw new MediaError('network');
  }
  if (response.ok) return response;
  throw new MediaError(response.status === 404 ? 'notFound' : 'server', `answered ${response.status}`);
}

async function openThumbnailCache(): Promise<Cache | undefined> {
  // Cache Storage exists only in secure contexts.
  if (typeof caches === 'undefined') return undefined;
  try {
    return await caches.open(THUMBNAIL_CACHE);
  } catch {
    return undefined;
  }
}

export interface ThumbnailRequest {
  fileID: number;
  /** GET /files/preview/:id with `?token=`. */
  url: string;
  key: string;
  header: string;
  /** False: neither read nor write the `thumbs` cache (a public album's thumbnails are not the user's). */
  cache?: boolean;
  /** False: answer only from the `thumbs` cache, else reject with MediaError('held') (../media/scroll-pace.ts). */
  mayFetch?: boolean;
}

export interface OriginalRequest {
  /** GET /files/download/:id with `?token=`. */
  url: string;
  key: string;
  header: string;
}

/** The original, decrypted while it downloads (errors with DecryptionError if it does not open or is cut short). */
async function original({ url, key, header }: OriginalRequest): Promise<ReadableStream<Uint8Array>> {
  const response = await fetchObject(url);
  if (!response.body) throw new MediaError('server', 'no body');
  const { openingStream } = await opening();
  return openingStream(response.body, header, key);
}

async function cappedOriginal(request: OriginalRequest): Promise<ReadableStream<Uint8Array>> {
  return (await original(request)).pipeThrough(
    capBytes(VIEWER_ORIGINAL_MAX_BYTES, tooLarge(VIEWER_ORIGINAL_MAX_BYTES)),
  );
}

export function createMediaJob() {
  // Opened once per worker (a new worker after logout or a change of routes, media.ts), not per thumbnail.
  let thumbnailCache: Promise<Cache | undefined> | undefined;
  const job = {
    /**
     * The decrypted thumbnail as a Blob of its image type (media-type.ts's `typedBlob`), typed here so that the page
     * only makes its object URL: its thread neither reads the bytes back to sniff them nor copies them into a second
     * Blob. The encrypted bytes are opened as they are.
     */
    async thumbnail({
      fileID,
      url,
      key,
      header,
      cache: useCache = true,
      mayFetch = true,
    }: ThumbnailRequest): Promise<Blob> {
      const cache = useCache ? await (thumbnailCache ??= openThumbnailCache()) : undefined;
      const cacheKey = thumbnailCacheKey(fileID);
      const cached = await cache?.match(cacheKey);
      if (cached) {
        const encrypted = new Uint8Array(await cached.arrayBuffer());
        try {
          const { openBlobBytes } = await opening();
          return await typedBlob(openBlobBytes({ encryptedData: encrypted, header }, key));
        } catch (e) {
          // Stale (the thumbnail was replaced) or not ours: fetch it again.
          if (!(e instanceof DecryptionError)) throw e;
          await cache?.delete(cacheKey);
        }
      }
      if (!mayFetch) throw new MediaError('held', 'not in the cache, and fetches are held');
      const response = await fetchObject(url);
      if (!response.body) throw new MediaError('server', 'no body');
      const encrypted = await readAtMost(response.body, THUMBNAIL_MAX_BYTES, tooLarge(THUMBNAIL_MAX_BYTES));
      const { openBlobBytes } = await opening();
      const plaintext = openBlobBytes({ encryptedData: encrypted, header }, key);
      // Kept only once it opened, so the cache never holds what would fail again.
      await cache?.put(cacheKey, new Response(encrypted)).catch(() => undefined);
      return typedBlob(plaintext);
    },

    original,

    /**
     * The same as one Blob, for browsers that cannot transfer a stream from a worker; held whole, so capped like
     * the viewer's original (MediaError('tooLarge')).
     */
    async originalBlob(request: OriginalRequest): Promise<Blob> {
      return new Response(await cappedOriginal(request)).blob();
    },

    /**
     * The whole original for a viewer: a HEIF picture this browser cannot show arrives converted to JPEG. Errors
     * with MediaError('tooLarge') past VIEWER_ORIGINAL_MAX_BYTES.
     */
    async displayableOriginal(request: OriginalRequest): Promise<Blob> {
      // The HEIF code with the first original a viewer opens: a visit that shows only thumbnails never loads it.
      const [{ displayableOriginal }, original] = await Promise.all([
        import('@ente/shared/media/heif.ts'),
        cappedOriginal(request),
      ]);
      return displayableOriginal(await new Response(original).blob());
    },

    /**
     * The decrypted thumbnail's object URL, made here rather than on the page's thread (see [Note: Object URLs made
     * in the media worker]). It lives as long as this worker unless `revokeURLs` lets go of it first.
     */
    async thumbnailURL(request: ThumbnailRequest): Promise<string> {
      return URL.createObjectURL(await job.thumbnail(request));
    },

    /** Revokes object URLs this worker made (`thumbnailURL`), a batch at once; others are ignored. */
    revokeURLs(urls: readonly string[]): void {
      for (const url of urls) URL.revokeObjectURL(url);
    },

    // A public album's opening, in this worker so that a visit to a link starts one worker.
    ...createAlbumJob(),
  };
  return job;
}

export type MediaJob = ReturnType<typeof createMediaJob>;
