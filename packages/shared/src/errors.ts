// The error catalogue (docs/product.md#errors): every failure a page may have to explain has an
// identifier here, the message text it carries in code and logs, and a translation under the same key
// in the `errors` namespace that the UI shows. errorIdOf maps anything thrown (HTTP errors, AppError,
// storage errors) to an identifier, so no page ever shows a raw message. The catalogue holds only the
// identifiers that errorIdOf maps to or that our code throws as an AppError; a flow that needs a new
// one adds it here and in the nine errors.json files.
import { middlewareErrorTexts } from '@ente/protocol/error-texts.ts';

import { Failure } from './failure.ts';
import { ApiError, ClientError, NetworkError, RequestCanceledError, ServerError } from './http.ts';
import { TokenMissingError } from './storage/user.ts';

/** Identifier → its message text (for code and logs, never shown to users). */
export const errorCatalogue = {
  unknown: 'Something went wrong, please try again',
  networkError: 'Network Error',
  requestFailed: 'request failed',
  requestCanceled: 'request canceled',
  serverError: 'server error',
  badRequest: 'bad request',
  forbidden: 'forbidden',
  notFound: 'not found',
  tooManyRequests: 'too many requests',
  sessionExpired: 'session expired',
  tokenExpired: 'token expired',
  tokenMissing: 'token missing',
  authKeyNotFound: 'auth key not found',
} as const;

export type ErrorId = keyof typeof errorCatalogue;

export const errorIds = Object.keys(errorCatalogue) as ErrorId[];

/** A failure of our own code that already knows its catalogue identifier (a Failure of the `errors` namespace). */
export class AppError extends Failure<`errors:${ErrorId}`> {
  constructor(
    readonly id: ErrorId,
    options?: { cause?: unknown },
  ) {
    super(`errors:${id}`, { cause: options?.cause, message: errorCatalogue[id] });
    this.name = 'AppError';
  }
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
