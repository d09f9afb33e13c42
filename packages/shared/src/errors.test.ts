import { readFileSync } from 'node:fs';
import path from 'node:path';

import { AppError, errorIdOf, errorIds, type ErrorId } from './errors.ts';
import { ApiError, ClientError, NetworkError, RequestCanceledError, ResponseShapeError, ServerError } from './http.ts';
import { supportedLocales } from './i18n/locales.ts';
import { TokenMirrorError, TokenMissingError } from './storage/user.ts';

const mappings: [string, unknown, ErrorId][] = [
  ['a network failure', new NetworkError(), 'networkError'],
  ['a cancelled request', new RequestCanceledError(), 'requestCanceled'],
  ['a call that needs a token we lack', new TokenMissingError(), 'tokenMissing'],
  ['an AppError', new AppError('authKeyNotFound'), 'authKeyNotFound'],
  ['a server error', new ServerError(502), 'serverError'],
  ['a server error with a middleware text', new ServerError(500, 'token expired'), 'serverError'],
  ['client error 400', new ClientError(400), 'badRequest'],
  ['client error 401', new ClientError(401), 'sessionExpired'],
  ['client error 401 "invalid token"', new ClientError(401, 'invalid token'), 'sessionExpired'],
  ['client error 401 "token expired"', new ClientError(401, 'token expired'), 'tokenExpired'],
  ['client error 401 "missing token"', new ClientError(401, 'missing token'), 'tokenMissing'],
  ['client error 403', new ClientError(403), 'forbidden'],
  ['client error 404', new ClientError(404), 'notFound'],
  ['client error 410', new ClientError(410), 'requestFailed'],
  ['client error 429 (rate limit)', new ClientError(429, 'Rate limit breached, try later'), 'tooManyRequests'],
  ['ApiError TOO_MANY_UNVERIFIED_SESSIONS', new ApiError('', 'TOO_MANY_UNVERIFIED_SESSIONS', 429), 'tooManyRequests'],
  ['ApiError TOO_MANY_WRONG_ATTEMPTS', new ApiError('', 'TOO_MANY_WRONG_ATTEMPTS', 410), 'tooManyRequests'],
  ['ApiError AUTH_KEY_NOT_CREATED', new ApiError('', 'AUTH_KEY_NOT_CREATED', 400), 'authKeyNotFound'],
  ['ApiError INVALID_SESSION', new ApiError('', 'INVALID_SESSION', 410), 'sessionExpired'],
  ['ApiError SESSION_ALREADY_VERIFIED', new ApiError('', 'SESSION_ALREADY_VERIFIED', 410), 'sessionExpired'],
  ['another ApiError, by status 400', new ApiError('Invalid length for srpA', 'BAD_REQUEST', 400), 'badRequest'],
  ['another ApiError, by status 404', new ApiError('', 'NOT_FOUND', 404), 'notFound'],
  ['another ApiError, by status 409', new ApiError('', 'CONFLICT', 409), 'requestFailed'],
  ['another ApiError, by status 500', new ApiError('boom', 'INTERNAL', 500), 'serverError'],
  ['a wrongly shaped answer', new ResponseShapeError('GET /x', undefined), 'unknown'],
  ['a drifted token mirror', new TokenMirrorError(), 'unknown'],
  ['a plain Error', new Error('session expired'), 'unknown'],
  ['something that is not an Error', 'oops', 'unknown'],
];

test.each(mappings)('%s maps to %s', (_, error, id) => {
  expect(errorIdOf(error)).toBe(id);
});

test('the catalogue holds only identifiers that something maps to', () => {
  expect(new Set(mappings.map(([, , id]) => id))).toEqual(new Set(errorIds));
});

test('an AppError carries the message text of the catalogue and its cause', () => {
  const cause = new Error('inner');
  const error = new AppError('sessionExpired', { cause });
  expect(error.message).toBe('session expired');
  expect(error.cause).toBe(cause);
});

test('every identifier, and nothing else, is translated in the errors namespace of every locale', () => {
  for (const locale of supportedLocales) {
    const file = path.join(__dirname, 'i18n', 'locales', locale, 'errors.json');
    const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect([locale, Object.keys(messages).sort()]).toEqual([locale, [...errorIds].sort()]);
  }
});
