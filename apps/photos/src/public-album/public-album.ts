// A public album opened from its link, with no account (docs/protocol.md#public-links): `/public-collection/info`
// (the album, its name opened with the key of the link's fragment), the password step (Argon2id with the link's
// parameters, then verify-password), every page of `/public-collection/diff` opened, and the routes the media
// loader fetches thumbnails and originals from. The opening and the Argon2id run in the media worker, the one that
// also opens the thumbnails (album-job.ts): a visit loads one worker and one libsodium. The requests are plain
// fetches, and the page checks only the few fields it reads: the diff's rows are checked against the protocol's
// shape in the worker, so that zod and the HTTP client stay out of this route's scripts. The access token and the
// password's token travel as headers (in the query only for the media routes, whose 307 must carry none); both,
// and the album key, live in this object's closure: nothing is written to browser storage or logged.
import { clientPackage } from '@ente/shared/app-name.ts';
import { apiOrigin } from '@ente/shared/origins.ts';

import { newestFirst } from '../library/order.ts';
import type { GalleryFile } from '../library/types.ts';
import { callMediaWorker, type MediaRoutes } from '../media/media.ts';
import type { AlbumJob } from './album-job.ts';
import { PublicAlbumError } from './errors.ts';
import type { PublicLinkParts } from './link.ts';

/** What the page shows before the files: the album's name and what the link allows. */
export interface PublicAlbumInfo {
  name: string;
  /** Whether the owner lets viewers download (the clients honour it, docs/protocol.md#public-links). */
  enableDownload: boolean;
  /** Whether `unlock(password)` must succeed before `files()`. */
  passwordEnabled: boolean;
}

export interface PublicAlbum {
  /** The album's name and the link's settings. Rejects with PublicAlbumError. */
  info(): Promise<PublicAlbumInfo>;
  /** Hashes the password as the link says and has the server check it; `wrongPassword` when it is not the one. */
  unlock(password: string): Promise<void>;
  /** Every file of the album, opened, newest first (a file that does not open is left out). */
  files(): Promise<GalleryFile[]>;
  /** The link's object routes, for the media loader (`setMediaRoutes`). */
  readonly mediaRoutes: MediaRoutes;
}

/** The password's Argon2id parameters, as `/info` hands them. */
interface PasswordParameters {
  nonce: string;
  opsLimit: number;
  memLimit: number;
}

/** How many rows one worker call opens (a diff page's worth). */
const OPEN_BATCH = 2500;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Runs a method of the album's job in the media worker, or in this realm where there are no workers (Node: tests),
 * as the crypto client does.
 */
function runAlbumJob<K extends keyof AlbumJob>(
  method: K,
  args: Parameters<AlbumJob[K]>[0],
): Promise<Awaited<ReturnType<AlbumJob[K]>>> {
  if (typeof Worker !== 'undefined') return callMediaWorker(method, args);
  return import('./album-job.ts').then(({ createAlbumJob }) => {
    const job = createAlbumJob() as unknown as Record<K, (args: unknown) => Promise<Awaited<ReturnType<AlbumJob[K]>>>>;
    return job[method](args);
  });
}

/** A refusal of the link's routes as the page words it (docs/protocol.md#public-links): status and `{error}` text. */
function refusal(status: number, detail: string | undefined): PublicAlbumError {
  if (status === 401 && detail === 'password required') return new PublicAlbumError('passwordRequired');
  if (status === 401 || status === 404) return new PublicAlbumError('wrongLink');
  if (status === 410) return new PublicAlbumError(detail === 'expired token' ? 'expired' : 'disabled');
  if (status === 403) return new PublicAlbumError('deviceLimit');
  if (status === 429) return new PublicAlbumError('tooManyTries');
  return new PublicAlbumError('server');
}

/** Any failure as a PublicAlbumError: its own as it is, anything else `server`. */
export function publicAlbumErrorOf(error: unknown): PublicAlbumError {
  return error instanceof PublicAlbumError ? error : new PublicAlbumError('server', { cause: error });
}

/** `work`'s failure as a PublicAlbumError (a worker that failed is `server`). */
async function asPublicAlbumError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw publicAlbumErrorOf(error);
  }
}

/** An answer that is not the shape the page reads. */
const malformed = (what: string) => new PublicAlbumError('server', { cause: new Error(`an unexpected ${what}`) });

/** The link's settings from the collection's `publicURLs` (its one entry, as `/info` answers it). */
function linkSettings(publicURLs: unknown): { enableDownload: boolean; password?: PasswordParameters } {
  const link: unknown = Array.isArray(publicURLs) ? publicURLs[0] : undefined;
  if (!isRecord(link)) return { enableDownload: true };
  const enableDownload = link.enableDownload !== false;
  if (link.passwordEnabled !== true) return { enableDownload };
  const { nonce, opsLimit, memLimit } = link;
  if (typeof nonce !== 'string' || typeof opsLimit !== 'number' || typeof memLimit !== 'number') {
    throw malformed('password setting');
  }
  return { enableDownload, password: { nonce, opsLimit, memLimit } };
}

/** What `/info` says of the album that the page reads: its boxed name (or a plain one) and the link's settings. */
function infoOf(answer: unknown) {
  const collection = isRecord(answer) ? answer.collection : undefined;
  if (!isRecord(collection)) throw malformed('album');
  const { encryptedName, nameDecryptionNonce, name = '', publicURLs } = collection;
  if (typeof encryptedName !== 'string' || typeof nameDecryptionNonce !== 'string' || typeof name !== 'string') {
    throw malformed('album');
  }
  return { encryptedName, nameDecryptionNonce, name, settings: linkSettings(publicURLs) };
}

/** The album's name opened with the link's key: a key that does not open it is a wrong link. */
async function albumName(info: ReturnType<typeof infoOf>, collectionKey: string): Promise<string> {
  if (info.encryptedName === '') return info.name;
  try {
    const bytes = await runAlbumJob('openAlbumName', {
      encryptedData: info.encryptedName,
      nonce: info.nameDecryptionNonce,
      collectionKey,
    });
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0)));
  } catch (error) {
    throw new PublicAlbumError('wrongLink', { cause: error });
  }
}

/** A diff row as far as the page reads it (the worker checks the rest). */
interface DiffRow {
  id: number;
  isDeleted: boolean;
  updationTime: number;
}

function diffPageOf(answer: unknown): { rows: DiffRow[]; hasMore: boolean } {
  const diff = isRecord(answer) ? answer.diff : undefined;
  if (!isRecord(answer) || !Array.isArray(diff) || typeof answer.hasMore !== 'boolean') throw malformed('diff');
  const rows = diff.map((row: unknown) => {
    if (!isRecord(row)) throw malformed('diff row');
    const { id, isDeleted, updationTime } = row;
    if (typeof id !== 'number' || typeof isDeleted !== 'boolean' || typeof updationTime !== 'number') {
      throw malformed('diff row');
    }
    return row as unknown as DiffRow;
  });
  return { rows, hasMore: answer.hasMore };
}

/**
 * Entries (rows, deletions too) one listing of an album takes at most: far above any album a browser can show, and
 * it ends a listing that a broken or hostile server would keep going with ever newer rows.
 */
export const MAX_ALBUM_ENTRIES = 500_000;

/** A listing that would never end, as the page words it (`server`), with what the server did. */
const listingError = (what: string) =>
  new PublicAlbumError('server', { cause: new Error(`the album's file list does not end: ${what}`) });

export function publicAlbum(link: PublicLinkParts, { maxEntries = MAX_ALBUM_ENTRIES } = {}): PublicAlbum {
  const { accessToken, collectionKey } = link;
  let password: PasswordParameters | undefined;
  let jwt: string | undefined;

  /** The JSON answer of one of the link's routes; a refusal or no answer as PublicAlbumError. */
  async function request(path: string, init: { query?: string; body?: unknown } = {}): Promise<unknown> {
    const headers: Record<string, string> = { 'X-Auth-Access-Token': accessToken, 'X-Client-Package': clientPackage() };
    if (jwt !== undefined) headers['X-Auth-Access-Token-JWT'] = jwt;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const url = `${(await apiOrigin()).replace(/\/+$/, '')}${path}${init.query ?? ''}`;
    let response: Response;
    let answer: unknown;
    try {
      response = await fetch(url, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      answer = text === '' ? undefined : JSON.parse(text);
    } catch (error) {
      // A JSON parse failure of an answer that came is the server's.
      throw new PublicAlbumError(error instanceof SyntaxError ? 'server' : 'network', { cause: error });
    }
    if (response.ok) return answer;
    const detail = isRecord(answer) && typeof answer.error === 'string' ? answer.error : undefined;
    // A refused password hash is a plain 401 `{}`; a refused link token carries its `{error}` text.
    if (path.endsWith('/verify-password') && response.status === 401 && detail === undefined) {
      throw new PublicAlbumError('wrongPassword');
    }
    throw refusal(response.status, detail);
  }

  /** Every diff page's live rows; a server that would keep the loop going (see listingError) is refused. */
  async function liveRows(): Promise<unknown[]> {
    const rows = new Map<number, DiffRow>();
    let sinceTime = 0;
    let received = 0;
    for (;;) {
      const page = diffPageOf(await request('/public-collection/diff', { query: `?sinceTime=${sinceTime}` }));
      const from = sinceTime;
      received += page.rows.length;
      if (received > maxEntries) throw listingError(`more than ${maxEntries} entries`);
      for (const row of page.rows) {
        if (row.isDeleted) rows.delete(row.id);
        else rows.set(row.id, row);
        sinceTime = Math.max(sinceTime, row.updationTime);
      }
      if (!page.hasMore || page.rows.length === 0) return [...rows.values()];
      if (sinceTime <= from) throw listingError(`a page with more to come that stays at sinceTime ${from}`);
    }
  }

  return {
    async info() {
      const info = infoOf(await request('/public-collection/info'));
      password = info.settings.password;
      const name = await albumName(info, collectionKey);
      return { name, enableDownload: info.settings.enableDownload, passwordEnabled: password !== undefined };
    },

    async unlock(text) {
      if (!password) throw new PublicAlbumError('server', { cause: new Error('info() first, on a password link') });
      const { nonce, opsLimit, memLimit } = password;
      let passHash: string;
      try {
        passHash = await runAlbumJob('linkPasswordHash', { password: text, salt: nonce, opsLimit, memLimit });
      } catch (error) {
        // Parameters no client would write: the link is not one this app can open.
        throw new PublicAlbumError(error instanceof Error && error.name === 'KdfParamsError' ? 'wrongLink' : 'server', {
          cause: error,
        });
      }
      const answer = await request('/public-collection/verify-password', { body: { passHash } });
      if (!isRecord(answer) || typeof answer.jwtToken !== 'string') throw malformed('password answer');
      jwt = answer.jwtToken;
    },

    files: () =>
      asPublicAlbumError(async () => {
        const rows = await liveRows();
        const files: GalleryFile[] = [];
        for (let start = 0; start < rows.length; start += OPEN_BATCH) {
          const opened = await runAlbumJob('openAlbumFiles', {
            rows: rows.slice(start, start + OPEN_BATCH),
            collectionKey,
          });
          for (const file of opened) if (file) files.push(file);
        }
        return files.sort(newestFirst);
      }),

    mediaRoutes: {
      async objectURL(kind, fileID) {
        const url = new URL(`${(await apiOrigin()).replace(/\/+$/, '')}/public-collection/files/${kind}/${fileID}`);
        url.searchParams.set('accessToken', accessToken);
        if (jwt !== undefined) url.searchParams.set('accessTokenJWT', jwt);
        return url.toString();
      },
      cacheThumbnails: false,
    },
  };
}
