// Thumbnails and originals as pages use them: `thumbnailURL(file, signal)` answers an object URL of the decrypted
// thumbnail (kept in a bounded LRU, the same request shared, a few at once and the newest first: request-queue.ts),
// `openOriginal(file)` a ReadableStream
// of the original decrypted while it downloads, `originalURL(file, videoType)` a typed object URL of it. The fetching
// and decryption run in one media worker per tab (media-worker.ts); the `thumbs` cache keeps the encrypted
// bytes only. Logout revokes every URL and ends the worker (the cache itself is a place of storage.ts).
import { apiOrigin } from '@ente/shared/origins.ts';
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';
import { ensureAuthToken } from '@ente/shared/storage/user.ts';

import { connectWorker, type WorkerConnection } from '../upload/worker-rpc.ts';
import { MediaError, rebuildMediaError } from './errors.ts';
import type { MediaJob, OriginalRequest } from './media-job.ts';
import { typedBlob } from './media-type.ts';
import { ObjectUrlLru } from './object-url-lru.ts';
import { VIEWER_ORIGINAL_MAX_BYTES } from './read-at-most.ts';
import { requestQueue } from './request-queue.ts';
import { fetchesHeld } from './scroll-pace.ts';

/** What a thumbnail needs of a library file (GalleryFile has all of it). */
export interface ThumbnailSource {
  id: number;
  key: string;
  thumbnailHeader: string;
}

/** What an original needs of a library file. */
export interface OriginalSource {
  id: number;
  key: string;
  fileHeader: string;
  /** The encrypted size the server gave: a viewer's original past the cap is refused before it is fetched. */
  fileSize?: number;
}

/**
 * Decrypted thumbnails kept as object URLs (their Blobs live as long as the URL): a few screens of a grid (one holds
 * up to about 100 cells with its rows off screen), so that scrolling back shows them at once, while the memory they
 * hold stays bounded (an evicted URL is revoked).
 */
const THUMBNAILS_KEPT = 500;
const ORIGINALS_KEPT = 3;
/** Thumbnails the worker works on at once: enough to keep its fetches and the decryption busy, few enough to drop. */
const THUMBNAILS_AT_ONCE = 8;

// [Note: Object URLs made in the media worker]
// A thumbnail's object URL is made by the media worker, which has the Blob, and answered as a string: making one is a
// round trip to the browser's blob registry, and on the page's thread that trip, once per thumbnail, 80 a second in a
// fast scroll, was the largest single cost of the scroll's late frames. The page's <img> loads it as any other object
// URL of its origin. A URL lives as long as the worker that made it, so the LRU's evictions are sent back to that worker
// to revoke, gathered into one message; a worker that dies takes its URLs with it, and the LRU then forgets them.

let connection: WorkerConnection<MediaJob> | undefined;
/** Object URLs of thumbnails the LRU let go of, to revoke in the worker that made them (one message per batch). */
let toRevoke: { from: WorkerConnection<MediaJob>; urls: string[] } | undefined;
const revokeInWorker = (url: string) => {
  if (!connection) return;
  if (!toRevoke || toRevoke.from !== connection) {
    const batch = { from: connection, urls: [] as string[] };
    toRevoke = batch;
    setTimeout(() => {
      if (toRevoke === batch) toRevoke = undefined;
      // A worker that has ended revoked them itself.
      if (batch.from === connection) void batch.from.call('revokeURLs', batch.urls).catch(() => undefined);
    }, 0);
  }
  toRevoke.urls.push(url);
};
const thumbnails = new ObjectUrlLru(THUMBNAILS_KEPT, revokeInWorker);
const originals = new ObjectUrlLru(ORIGINALS_KEPT);
const inFlight = new Map<string, Promise<string>>();
let thumbnailQueue = requestQueue<string>(THUMBNAILS_AT_ONCE);

function mediaWorker(): WorkerConnection<MediaJob> {
  if (!connection) {
    const worker = new Worker(new URL('./media-worker.ts', import.meta.url), { type: 'module', name: 'ente-media' });
    const created = connectWorker<MediaJob>(worker, rebuildMediaError);
    connection = created;
    // A dead worker is replaced on the next call; the thumbnails' URLs it made ended with it.
    worker.addEventListener('error', () => {
      if (connection !== created) return;
      connection = undefined;
      thumbnails.clear();
    });
  }
  return connection;
}

/**
 * Starts the media worker ahead of the first thumbnail, so that its module and libsodium load while the library
 * opens from its cache instead of after the grid has drawn (a library page calls it as its module loads).
 */
export function startMediaWorker(): void {
  if (typeof Worker !== 'undefined') mediaWorker();
}

/** One of the media worker's other methods (a public album's opening, public-album/album-job.ts), in the same worker. */
export function callMediaWorker<K extends keyof MediaJob>(
  method: K,
  args: Parameters<MediaJob[K]>[0],
): Promise<Awaited<ReturnType<MediaJob[K]>>> {
  return mediaWorker().call(method, args);
}

/** Where thumbnails and originals come from: the signed-in user's routes, or a public link's (public-album/). */
export interface MediaRoutes {
  /** The URL of a file's thumbnail (`preview`) or original (`download`), its credentials in the query. */
  objectURL(kind: 'preview' | 'download', fileID: number): Promise<string>;
  /** Whether thumbnails may be kept, encrypted, in the `thumbs` cache (the signed-in user's, cleared at logout). */
  cacheThumbnails: boolean;
}

/** How long the API origin and the token read from storage serve thumbnails before they are read again. */
const CREDENTIALS_KEPT_MS = 5000;
let credentials: { at: number; read: Promise<{ origin: string; token: string }> } | undefined;

/**
 * The API origin and the token: two IndexedDB reads on the page's thread, so read once for the many thumbnails of a
 * scroll, not once each (a reset forgets them; a failed read is not kept).
 */
function signedInCredentials(): Promise<{ origin: string; token: string }> {
  const now = Date.now();
  if (!credentials || now - credentials.at > CREDENTIALS_KEPT_MS) {
    const read = Promise.all([apiOrigin(), ensureAuthToken()]).then(([origin, token]) => ({ origin, token }));
    credentials = { at: now, read };
    read.catch(() => {
      if (credentials?.read === read) credentials = undefined;
    });
  }
  return credentials.read;
}

/** The object routes of the signed-in user, with the token in the query so that the 307 carries no header. */
const signedInRoutes: MediaRoutes = {
  async objectURL(kind, fileID) {
    const { origin, token } = await signedInCredentials();
    const url = new URL(`${origin.replace(/\/+$/, '')}/files/${kind}/${fileID}`);
    url.searchParams.set('token', token);
    return url.toString();
  },
  cacheThumbnails: true,
};

let routes = signedInRoutes;

/**
 * Serves media from `next` (a public album's routes) or, with undefined, from the signed-in routes again.
 * Everything kept from the routes before is dropped first.
 */
export function setMediaRoutes(next: MediaRoutes | undefined): void {
  resetMedia();
  routes = next ?? signedInRoutes;
}

const objectURL: MediaRoutes['objectURL'] = (kind, fileID) => routes.objectURL(kind, fileID);

/** Bumped by every reset: what a request started before one brings back is dropped, never kept for the new routes. */
let generation = 0;

/** Rejects when a reset came since `from`: the old routes' result must not enter the new worker or LRU. */
function stillCurrent(from: number): void {
  if (generation !== from) throw new Error('media reset');
}

/**
 * The one request in flight for `key`. `make` is given its generation to check (`stillCurrent`) after each wait; an
 * older request ending after a reset leaves the entry of a newer one with the same key in place.
 */
function once(key: string, make: (from: number) => Promise<string>): Promise<string> {
  const pending = inFlight.get(key);
  if (pending) return pending;
  const started = make(generation).finally(() => {
    if (inFlight.get(key) === started) inFlight.delete(key);
  });
  inFlight.set(key, started);
  return started;
}

const thumbnailKey = (file: ThumbnailSource) => `${file.id}:${file.thumbnailHeader}`;

/** The object URL of the thumbnail when it is already decrypted (no work started), for a first render. */
export function keptThumbnailURL(file: ThumbnailSource): string | undefined {
  return thumbnails.get(thumbnailKey(file));
}

/**
 * An object URL of the file's decrypted thumbnail. Rejects with MediaError or DecryptionError, or with an AbortError
 * once `signal` aborts (a cell that unmounted: a request not started yet is then dropped, see request-queue.ts).
 * While the window scrolls too fast to see thumbnails (`fetchesHeld`, scroll-pace.ts), one that is not in the `thumbs`
 * cache is not fetched: MediaError('held'), to ask for again once `whenFetchesResume` calls back.
 */
export function thumbnailURL(file: ThumbnailSource, signal?: AbortSignal): Promise<string> {
  const key = thumbnailKey(file);
  const kept = thumbnails.get(key);
  if (kept) return Promise.resolve(kept);
  const from = generation;
  return thumbnailQueue.get(
    key,
    async () => {
      const { cacheThumbnails } = routes;
      const url = await objectURL('preview', file.id);
      stillCurrent(from);
      const request = {
        fileID: file.id,
        url,
        key: file.key,
        header: file.thumbnailHeader,
        cache: cacheThumbnails,
        mayFetch: !fetchesHeld(),
      };
      // Typed, and its URL made, by the worker (see [Note: Object URLs made in the media worker]).
      const worker = mediaWorker();
      const objectUrl = await worker.call('thumbnailURL', request);
      stillCurrent(from);
      // Made by a worker that has since ended: gone with it.
      if (connection !== worker) throw new MediaError('network', 'the media worker ended');
      thumbnails.set(key, objectUrl);
      return objectUrl;
    },
    signal,
  );
}

async function originalRequest(file: OriginalSource): Promise<OriginalRequest> {
  return { url: await objectURL('download', file.id), key: file.key, header: file.fileHeader };
}

/** The original, decrypted while it downloads; the stream errors with DecryptionError if it is tampered or cut short. */
export async function openOriginal(file: OriginalSource): Promise<ReadableStream<Uint8Array>> {
  const request = await originalRequest(file);
  try {
    return await mediaWorker().call('original', request);
  } catch (e) {
    // Browsers that cannot transfer a stream out of a worker get the whole Blob instead.
    if (!(e instanceof Error && e.name === 'DataCloneError')) throw e;
    return (await mediaWorker().call('originalBlob', request)).stream();
  }
}

/**
 * An object URL of the whole original for a viewer (the last few are kept): a HEIC/HEIF picture the browser cannot
 * show is converted to JPEG in the worker. Its type is `videoType` when given, else the image type of its first
 * bytes, else application/octet-stream (media-type.ts), never none. Downloads use
 * `openOriginal` (download/), which always gives the original bytes. One past VIEWER_ORIGINAL_MAX_BYTES (by the
 * server's size, else as it streams) rejects with MediaError('tooLarge').
 */
export function originalURL(file: OriginalSource, videoType?: string): Promise<string> {
  const key = `${file.id}:${file.fileHeader}`;
  const kept = originals.get(key);
  if (kept) return Promise.resolve(kept);
  if (file.fileSize !== undefined && file.fileSize > VIEWER_ORIGINAL_MAX_BYTES) {
    return Promise.reject(new MediaError('tooLarge', `more than ${VIEWER_ORIGINAL_MAX_BYTES} bytes`));
  }
  return once(`original:${key}`, async (from) => {
    const request = await originalRequest(file);
    stillCurrent(from);
    const blob = await mediaWorker().call('displayableOriginal', request);
    const typed = await typedBlob(blob, videoType);
    stillCurrent(from);
    const url = URL.createObjectURL(typed);
    originals.set(key, url);
    return url;
  });
}

/** Revokes every object URL and ends the media worker (logout). */
export function resetMedia(): void {
  generation++;
  credentials = undefined;
  // The worker's end revokes its thumbnails' URLs: none is sent to it first (clear's revocations see no connection).
  const ending = connection;
  connection = undefined;
  toRevoke = undefined;
  thumbnails.clear();
  originals.clear();
  inFlight.clear();
  thumbnailQueue.clear(new Error('media reset'));
  thumbnailQueue = requestQueue<string>(THUMBNAILS_AT_ONCE);
  ending?.terminate(new Error('media reset'));
}

registerInMemoryReset('photos-media', resetMedia);
