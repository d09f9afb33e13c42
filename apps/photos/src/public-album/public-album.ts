// A public album opened from its link, with no account (docs/protocol.md#public-links): `/public-collection/info`
// (the album, its name opened with the key of the link's fragment), the password step (Argon2id with the link's
// parameters in the crypto worker, then verify-password), every page of `/public-collection/diff` opened in the
// crypto worker, and the routes the media loader fetches thumbnails and originals from. The access token and the
// password's token travel as headers (in the query only for the media routes, whose 307 must carry none); both,
// and the album key, live in this object's closure: nothing is written to browser storage or logged.
import type { LockedFile } from '@ente/crypto/api.ts';
import { cryptoWorker } from '@ente/crypto/client.ts';
import { verifyLinkPasswordResponseSchema } from '@ente/protocol/photos-trash-links.ts';
import {
  collectionDiffResponseSchema,
  collectionResponseSchema,
  type Collection,
  type PhotoFile,
} from '@ente/protocol/photos.ts';
import { ApiError, ClientError, getJSON, NetworkError, postJSON, type RequestOptions } from '@ente/shared/http.ts';
import { apiOrigin } from '@ente/shared/origins.ts';

import { galleryFileOf } from '../library/model.ts';
import { newestFirst } from '../library/order.ts';
import type { GalleryFile } from '../library/types.ts';
import type { MediaRoutes } from '../media/media.ts';
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

/** How many rows one crypto worker call opens (a diff page's worth). */
const OPEN_BATCH = 2500;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The server's refusal as the page words it (docs/protocol.md#public-links); anything else is `server`. */
export function publicAlbumErrorOf(error: unknown): PublicAlbumError {
  if (error instanceof PublicAlbumError) return error;
  if (error instanceof NetworkError) return new PublicAlbumError('network', { cause: error });
  const status = error instanceof ApiError ? error.httpStatus : error instanceof ClientError ? error.httpStatus : 0;
  const detail = error instanceof ClientError ? error.detail : undefined;
  if (status === 401 && detail === 'password required')
    return new PublicAlbumError('passwordRequired', { cause: error });
  if (status === 401 || status === 404) return new PublicAlbumError('wrongLink', { cause: error });
  if (status === 410)
    return new PublicAlbumError(detail === 'expired token' ? 'expired' : 'disabled', { cause: error });
  if (status === 403) return new PublicAlbumError('deviceLimit', { cause: error });
  if (status === 429) return new PublicAlbumError('tooManyTries', { cause: error });
  return new PublicAlbumError('server', { cause: error });
}

async function asPublicAlbumError<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    throw publicAlbumErrorOf(error);
  }
}

/** The link's settings from the collection's `publicURLs` (its one entry, as `/info` answers it). */
function linkSettings(collection: Collection): { enableDownload: boolean; password?: PasswordParameters } {
  const link: unknown = collection.publicURLs?.[0];
  if (!isRecord(link)) return { enableDownload: true };
  const enableDownload = link.enableDownload !== false;
  if (link.passwordEnabled !== true) return { enableDownload };
  const { nonce, opsLimit, memLimit } = link;
  if (typeof nonce !== 'string' || typeof opsLimit !== 'number' || typeof memLimit !== 'number') {
    throw new PublicAlbumError('server');
  }
  return { enableDownload, password: { nonce, opsLimit, memLimit } };
}

/** The album's name opened with the link's key: a key that does not open it is a wrong link. */
async function albumName(collection: Collection, collectionKey: string): Promise<string> {
  if (collection.encryptedName === '') return collection.name;
  try {
    const bytes = await (
      await cryptoWorker()
    ).decryptBox(collection.encryptedName, collection.nameDecryptionNonce, collectionKey);
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0)));
  } catch (error) {
    throw new PublicAlbumError('wrongLink', { cause: error });
  }
}

function lockedFile(row: PhotoFile): LockedFile {
  return {
    encryptedKey: row.encryptedKey,
    keyDecryptionNonce: row.keyDecryptionNonce,
    metadata: { encryptedData: row.metadata.encryptedData, decryptionHeader: row.metadata.decryptionHeader },
    pubMagicMetadata: row.pubMagicMetadata,
  };
}

export function publicAlbum(link: PublicLinkParts): PublicAlbum {
  const { accessToken, collectionKey } = link;
  let password: PasswordParameters | undefined;
  let jwt: string | undefined;

  const options = (): RequestOptions => ({
    headers: {
      'X-Auth-Access-Token': accessToken,
      ...(jwt !== undefined && { 'X-Auth-Access-Token-JWT': jwt }),
    },
  });

  async function liveRows(): Promise<PhotoFile[]> {
    const rows = new Map<number, PhotoFile>();
    let sinceTime = 0;
    for (;;) {
      const page = await getJSON('/public-collection/diff', collectionDiffResponseSchema, {
        ...options(),
        params: { sinceTime },
      });
      for (const row of page.diff) {
        if (row.isDeleted) rows.delete(row.id);
        else rows.set(row.id, row);
        sinceTime = Math.max(sinceTime, row.updationTime);
      }
      if (!page.hasMore || page.diff.length === 0) return [...rows.values()];
    }
  }

  return {
    info: () =>
      asPublicAlbumError(
        (async () => {
          const { collection } = await getJSON('/public-collection/info', collectionResponseSchema, options());
          const settings = linkSettings(collection);
          password = settings.password;
          const name = await albumName(collection, collectionKey);
          return { name, enableDownload: settings.enableDownload, passwordEnabled: password !== undefined };
        })(),
      ),

    async unlock(text) {
      if (!password) throw new PublicAlbumError('server', { cause: new Error('info() first, on a password link') });
      const { nonce, opsLimit, memLimit } = password;
      let passHash: string;
      try {
        passHash = await (await cryptoWorker()).argon2idKey(text, nonce, opsLimit, memLimit);
      } catch (error) {
        // Parameters no client would write: the link is not one this app can open.
        throw new PublicAlbumError(error instanceof Error && error.name === 'KdfParamsError' ? 'wrongLink' : 'server', {
          cause: error,
        });
      }
      try {
        const answer = await postJSON(
          '/public-collection/verify-password',
          { passHash },
          verifyLinkPasswordResponseSchema,
          options(),
        );
        jwt = answer.jwtToken;
      } catch (error) {
        // A refused hash is a plain 401 `{}`; a refused link token carries its `{error}` text.
        if (error instanceof ClientError && error.httpStatus === 401 && error.detail === undefined) {
          throw new PublicAlbumError('wrongPassword', { cause: error });
        }
        throw publicAlbumErrorOf(error);
      }
    },

    files: () =>
      asPublicAlbumError(
        (async () => {
          const rows = await liveRows();
          const crypto = await cryptoWorker();
          const files: GalleryFile[] = [];
          for (let start = 0; start < rows.length; start += OPEN_BATCH) {
            const batch = rows.slice(start, start + OPEN_BATCH);
            const opened = await crypto.openFiles(batch.map(lockedFile), collectionKey);
            batch.forEach((row, i) => {
              const each = opened[i];
              const file = each ? galleryFileOf(row, each) : null;
              if (file) files.push(file);
            });
          }
          return files.sort(newestFirst);
        })(),
      ),

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
