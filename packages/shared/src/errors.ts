// The error catalogue (spec §8): every failure a page may have to explain has an identifier here, the
// message text it carries in code and logs, and a translation key in the `errors` namespace that the UI
// shows. errorIdOf maps anything thrown (HTTP errors, AppError, storage errors) to an identifier, so no
// page ever shows a raw message.
import { middlewareErrorTexts } from '@ente/protocol/errors.ts';
import { ApiError, ClientError, NetworkError, RequestCanceledError, ServerError } from './http.ts';
import { TokenMissingError } from './storage/user.ts';

/** Identifier → the message text of spec §8 (for code and logs, never shown to users). */
export const errorCatalogue = {
  unknown: 'Something went wrong, please try again',
  networkError: 'Network Error',
  requestFailed: 'request failed',
  requestCanceled: 'request canceled',
  requestTimeout: 'request taking too long',
  serverError: 'server error',
  badRequest: 'bad request',
  forbidden: 'forbidden',
  notFound: 'not found',
  tooManyRequests: 'too many requests',
  sessionExpired: 'session expired',
  tokenExpired: 'token expired',
  tokenMissing: 'token missing',
  incorrectPassword: 'incorrect password',
  passwordDecryptionFailed: 'password decryption failed on the device',
  encryptedKeyMissing: 'encrypted key missing from localStorage',
  authKeyNotFound: 'auth key not found',
  twoFactorEnabled: 'two factor enabled',
  signupFailed: 'signup failed',
  workerLoadFailed: 'failed to load web worker',
  storageQuotaExceeded: 'storage quota exceeded',
  subscriptionExpired: 'subscription expired',
  subscriptionNotPresent: 'subscription not present',
  etagMissing: 'no header/etag present in response body',
  urlAlreadySet: 'url already set',
  videoPlaybackFailed: 'video playback failed',
  unsupportedFileFormat: 'unsupported file format',
  fileTooLarge: 'file too large',
  invalidMimeType: 'invalid mime type',
  fileConversionFailed: 'file conversion failed',
  fileNotFound: 'file with id not found',
  notFileOwner: 'not file owner',
  noMetadata: 'no metadata',
  exifDataNotFound: 'exif data not found',
  uploadCancelled: 'upload cancelled',
  favoriteCollectionMissing: 'favorite collection missing',
  invalidCollectionOperation: 'invalid collection operation',
  exportStopped: 'export stopped',
  noExportFolderSelected: 'no export folder selected',
  exportFolderMissing: 'export folder does not exist',
} as const;

export type ErrorId = keyof typeof errorCatalogue;

export const errorIds = Object.keys(errorCatalogue) as ErrorId[];

/** A failure of our own code that already knows its catalogue identifier. */
export class AppError extends Error {
  constructor(
    readonly id: ErrorId,
    options?: { cause?: unknown },
  ) {
    super(errorCatalogue[id], options);
    this.name = 'AppError';
  }
}

/** The translation key (namespace `errors`) of an identifier, e.g. `errors:sessionExpired`. */
export function errorMessageKey(id: ErrorId): `errors:${ErrorId}` {
  return `errors:${id}`;
}

/** Maps anything thrown to the identifier a page should show. */
export function errorIdOf(e: unknown): ErrorId {
  if (e instanceof AppError) return e.id;
  if (e instanceof NetworkError) return 'networkError';
  if (e instanceof RequestCanceledError) return 'requestCanceled';
  if (e instanceof TokenMissingError) return 'tokenMissing';
  if (e instanceof ApiError) return idOfApiErrorCode(e.errCode) ?? idOfStatus(e.httpStatus);
  if (e instanceof ClientError) return idOfMiddlewareText(e.detail) ?? idOfStatus(e.httpStatus);
  if (e instanceof ServerError) return 'serverError';
  return 'unknown';
}

function idOfApiErrorCode(code: string): ErrorId | undefined {
  switch (code) {
    case 'TOO_MANY_UNVERIFIED_SESSIONS':
    case 'TOO_MANY_WRONG_ATTEMPTS':
      return 'tooManyRequests';
    case 'AUTH_KEY_NOT_CREATED':
      return 'authKeyNotFound';
    case 'INVALID_SESSION':
    case 'SESSION_ALREADY_VERIFIED':
      return 'sessionExpired';
    default:
      return undefined;
  }
}

function idOfMiddlewareText(text: string | undefined): ErrorId | undefined {
  switch (text) {
    case middlewareErrorTexts.tokenExpired:
      return 'tokenExpired';
    case middlewareErrorTexts.missingToken:
      return 'tokenMissing';
    default:
      return undefined;
  }
}

function idOfStatus(status: number): ErrorId {
  if (status === 400) return 'badRequest';
  if (status === 401) return 'sessionExpired';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 429) return 'tooManyRequests';
  if (status >= 500) return 'serverError';
  return 'requestFailed';
}
