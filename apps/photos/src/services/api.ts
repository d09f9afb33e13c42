// The photos endpoints the app calls (docs/protocol.md#photos, #trash, #public-links), through the shared HTTP
// client with the session's token, every answer parsed with the schemas of @ente/protocol. Failures are the
// HTTP client's errors (ApiError, ClientError, …; @ente/shared/failure.ts reads their status and code); the
// library turns them into what its pages show. Bodies carry ciphertext only: keys, names and metadata are
// encrypted by the caller (in the crypto worker) before they come here.
import { castPublicKeyResponseSchema, type CastDataRequest } from '@ente/protocol/cast.ts';
import {
  publicLinkResponseSchema,
  trashDiffResponseSchema,
  type CreatePublicLinkRequest,
  type PublicLink,
  type TrashDiffResponse,
  type UpdatePublicLinkRequest,
} from '@ente/protocol/photos-trash-links.ts';
import {
  collectionDiffResponseSchema,
  collectionResponseSchema,
  collectionsResponseSchema,
  shareesResponseSchema,
  type AddFilesRequest,
  type Collection,
  type CollectionDiffResponse,
  type CollectionRole,
  type CollectionUser,
  type CreateCollectionRequest,
  type MagicMetadata,
} from '@ente/protocol/photos.ts';
import { publicKeyResponseSchema, userDetailsResponseSchema } from '@ente/protocol/users.ts';
import { del, getJSON, post, postJSON, put, putJSON } from '@ente/shared/http.ts';

export type {
  Collection,
  CollectionDiffResponse,
  CollectionUser,
  PublicLink,
  TrashDiffResponse,
  UpdatePublicLinkRequest,
};

/** Lets the library cancel its requests in flight when it closes. */
export type ApiOptions = { signal?: AbortSignal };

/** A file key boxed with a collection's key, for add, move and restore. */
export type BoxedFileKey = { id: number; encryptedKey: string; keyDecryptionNonce: string };

const authed = (options: ApiOptions) => ({ auth: true, signal: options.signal });

/** `GET /collections/v2?sinceTime=`: the collections owned or shared with the caller changed since (deleted ones too). */
export async function getCollections(sinceTime: number, options: ApiOptions = {}): Promise<Collection[]> {
  const answer = await getJSON('/collections/v2', collectionsResponseSchema, {
    ...authed(options),
    params: { sinceTime },
  });
  return answer.collections;
}

/** `GET /collections/v2/diff?collectionID=&sinceTime=`: one page of a collection's files changed since, oldest first. */
export function getCollectionDiff(
  collectionID: number,
  sinceTime: number,
  options: ApiOptions = {},
): Promise<CollectionDiffResponse> {
  return getJSON('/collections/v2/diff', collectionDiffResponseSchema, {
    ...authed(options),
    params: { collectionID, sinceTime },
  });
}

/** `POST /collections`: a new collection, its key boxed with the masterKey and its name with its key. */
export async function createCollection(
  request: CreateCollectionRequest,
  options: ApiOptions = {},
): Promise<Collection> {
  const answer = await postJSON('/collections', request, collectionResponseSchema, authed(options));
  return answer.collection;
}

/** `POST /collections/rename` (owner only). */
export function renameCollection(
  request: { collectionID: number; encryptedName: string; nameDecryptionNonce: string },
  options: ApiOptions = {},
): Promise<void> {
  return post('/collections/rename', request, authed(options));
}

/** `POST /collections/add-files`: the caller's files into a collection, each key boxed with its key. */
export function addFiles(request: AddFilesRequest, options: ApiOptions = {}): Promise<void> {
  return post('/collections/add-files', request, authed(options));
}

/** `POST /collections/move-files`: the files leave `fromCollectionID` for `toCollectionID`. */
export function moveFiles(
  request: { fromCollectionID: number; toCollectionID: number; files: BoxedFileKey[] },
  options: ApiOptions = {},
): Promise<void> {
  return post('/collections/move-files', request, authed(options));
}

/** `POST /collections/v3/remove-files`. */
export function removeFiles(
  request: { collectionID: number; fileIDs: number[] },
  options: ApiOptions = {},
): Promise<void> {
  return post('/collections/v3/remove-files', request, authed(options));
}

/** `POST /collections/restore-files`: files of the caller's trash back into one collection. */
export function restoreFiles(request: AddFilesRequest, options: ApiOptions = {}): Promise<void> {
  return post('/collections/restore-files', request, authed(options));
}

/** `DELETE /collections/v3/:id?keepFiles=`: with `keepFiles` the collection must be empty (409 otherwise). */
export function deleteCollection(collectionID: number, keepFiles: boolean, options: ApiOptions = {}): Promise<void> {
  return del(`/collections/v3/${String(collectionID)}`, {
    ...authed(options),
    params: { keepFiles: keepFiles ? 'true' : 'false' },
  });
}

/** `POST /collections/share`: `encryptedKey` is the collection key sealed to the sharee's public key. */
export async function shareCollection(
  request: {
    collectionID: number;
    email: string;
    role: Extract<CollectionRole, 'VIEWER' | 'COLLABORATOR'>;
    encryptedKey: string;
  },
  options: ApiOptions = {},
): Promise<CollectionUser[]> {
  return (await postJSON('/collections/share', request, shareesResponseSchema, authed(options))).sharees;
}

/** `POST /collections/unshare`. */
export async function unshareCollection(
  request: { collectionID: number; email: string },
  options: ApiOptions = {},
): Promise<CollectionUser[]> {
  return (await postJSON('/collections/unshare', request, shareesResponseSchema, authed(options))).sharees;
}

/** `POST /collections/leave/:id`: a sharee leaves a collection shared with them. */
export function leaveCollection(collectionID: number, options: ApiOptions = {}): Promise<void> {
  return post(`/collections/leave/${String(collectionID)}`, undefined, authed(options));
}

/** One file's magic metadata: `version` the one read (the server compares it). */
export type FileMagicMetadataUpdate = { id: number; magicMetadata: MagicMetadata };

/** `PUT /files/magic-metadata` (`public: false`) or `/files/public-magic-metadata` (`public: true`). */
export function updateFilesMagicMetadata(
  metadataList: FileMagicMetadataUpdate[],
  which: { public: boolean },
  options: ApiOptions = {},
): Promise<void> {
  const path = which.public ? '/files/public-magic-metadata' : '/files/magic-metadata';
  return put(path, { metadataList }, authed(options));
}

/** `POST /files/trash`: each file with a collection of the caller's that holds it. */
export function trashFiles(items: { fileID: number; collectionID: number }[], options: ApiOptions = {}): Promise<void> {
  return post('/files/trash', { items }, authed(options));
}

/** `GET /trash/v2/diff?sinceTime=`: one page of the caller's trash entries changed since. */
export function getTrashDiff(sinceTime: number, options: ApiOptions = {}): Promise<TrashDiffResponse> {
  return getJSON('/trash/v2/diff', trashDiffResponseSchema, { ...authed(options), params: { sinceTime } });
}

/** `POST /trash/delete`: deleted for ever. */
export function deleteFromTrash(fileIDs: number[], options: ApiOptions = {}): Promise<void> {
  return post('/trash/delete', { fileIDs }, authed(options));
}

/** `POST /trash/empty`: everything trashed at or before `lastUpdatedAt` (the trash cursor). */
export function emptyTrash(lastUpdatedAt: number, options: ApiOptions = {}): Promise<void> {
  return post('/trash/empty', { lastUpdatedAt }, authed(options));
}

/** `POST /collections/share-url`: the album's live link (a new one if none). */
export async function createPublicLink(
  request: CreatePublicLinkRequest,
  options: ApiOptions = {},
): Promise<PublicLink> {
  return (await postJSON('/collections/share-url', request, publicLinkResponseSchema, authed(options))).result;
}

/** `PUT /collections/share-url`: the fields given change (a password as its Argon2id hash with salt and limits). */
export async function updatePublicLink(
  request: UpdatePublicLinkRequest,
  options: ApiOptions = {},
): Promise<PublicLink> {
  return (await putJSON('/collections/share-url', request, publicLinkResponseSchema, authed(options))).result;
}

/** `DELETE /collections/share-url/:id`: the link is disabled for good. */
export function deletePublicLink(collectionID: number, options: ApiOptions = {}): Promise<void> {
  return del(`/collections/share-url/${String(collectionID)}`, authed(options));
}

/** `GET /users/public-key?email=`: the key a collection key is sealed to when sharing with them. */
export async function getPublicKey(email: string, options: ApiOptions = {}): Promise<string> {
  const answer = await getJSON('/users/public-key', publicKeyResponseSchema, { ...authed(options), params: { email } });
  return answer.publicKey;
}

/** `DELETE /cast/revoke-all-tokens`: every screen paired by the caller stops (before a new pairing, and "Stop"). */
export function revokeCastTokens(options: ApiOptions = {}): Promise<void> {
  return del('/cast/revoke-all-tokens', authed(options));
}

/** `GET /cast/device-info/:code`: the public key of the screen showing `code` (404 for an unknown or expired one). */
export async function getCastPublicKey(code: string, options: ApiOptions = {}): Promise<string> {
  const path = `/cast/device-info/${encodeURIComponent(code)}`;
  return (await getJSON(path, castPublicKeyResponseSchema, authed(options))).publicKey;
}

/** `POST /cast/cast-data`: the payload sealed to the screen's key, which the screen fetches by its code. */
export function postCastData(request: CastDataRequest, options: ApiOptions = {}): Promise<void> {
  return post('/cast/cast-data', request, authed(options));
}

/** The storage figures of `GET /users/details/v2?memoryCount=true`. */
export interface StorageUsage {
  /** Bytes used (both objects of every file not deleted for ever). */
  usage: number;
  /** Bytes allowed. */
  storage: number;
  fileCount?: number;
}

export async function getStorageUsage(options: ApiOptions = {}): Promise<StorageUsage> {
  const { usage, fileCount, subscription } = await getJSON('/users/details/v2', userDetailsResponseSchema, {
    ...authed(options),
    params: { memoryCount: true },
  });
  return fileCount === undefined
    ? { usage, storage: subscription.storage }
    : { usage, storage: subscription.storage, fileCount };
}
