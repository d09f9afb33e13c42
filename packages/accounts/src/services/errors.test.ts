import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Failure } from '@ente/shared/failure.ts';
import { ApiError, ClientError, NetworkError, ResponseShapeError, ServerError } from '@ente/shared/http.ts';
import { supportedLocales } from '@ente/shared/i18n/locales.ts';
import { TokenMissingError } from '@ente/shared/storage/user.ts';

import {
  AccountsError,
  accountsErrorKinds,
  errorMessageKey,
  isAccountsError,
  toAccountsError,
  type AccountsErrorKind,
  type ErrorContext,
} from './errors.ts';

/** An error as the crypto worker delivers it: a plain Error with its name (and reason) kept. */
function workerError(name: string, reason?: string): Error {
  return Object.assign(new Error('from the worker'), { name, reason });
}

const mappings: [string, unknown, ErrorContext | undefined, AccountsErrorKind][] = [
  ['no response', new NetworkError(), 'verifyCode', 'network'],
  ['a 5xx', new ServerError(502), 'srpLogin', 'server'],
  ['a wrongly shaped answer', new ResponseShapeError('GET /x', undefined), 'session', 'server'],
  ['a 500 with a typed body', new ApiError('boom', 'INTERNAL', 500), undefined, 'server'],
  ['no stored token', new TokenMissingError(), 'session', 'sessionExpired'],
  // POST /users/ott
  ['ott: USER_NOT_REGISTERED', new ApiError('', 'USER_NOT_REGISTERED', 404), 'sendCode', 'notRegistered'],
  ['ott: USER_SIGNUP_INCOMPLETE', new ApiError('', 'USER_SIGNUP_INCOMPLETE', 404), 'sendCode', 'signupIncomplete'],
  ['ott: USER_ALREADY_REGISTERED', new ApiError('', 'USER_ALREADY_REGISTERED', 409), 'sendCode', 'alreadyRegistered'],
  ['ott: 403 at sign-up', new ClientError(403), 'sendCode', 'registrationDisabled'],
  ['ott: 403 for a new address', new ClientError(403), 'sendChangeCode', 'emailTaken'],
  ['ott: 429 {}', new ClientError(429), 'sendCode', 'rateLimited'],
  ['ott: 429 middleware', new ClientError(429, 'Rate limit breached, try later'), 'sendCode', 'rateLimited'],
  ['ott: 502 EMAIL_NOT_SENT', new ApiError('', 'EMAIL_NOT_SENT', 502), 'sendCode', 'emailNotSent'],
  // POST /users/verify-email
  ['verify: 401', new ClientError(401), 'verifyCode', 'wrongCode'],
  ['verify: 410', new ClientError(410), 'verifyCode', 'expiredCode'],
  ['verify: 429 {}', new ClientError(429), 'verifyCode', 'tooManyAttempts'],
  ['verify: 429 middleware', new ClientError(429, 'Rate limit breached, try later'), 'verifyCode', 'rateLimited'],
  ['verify: 403', new ClientError(403), 'verifyCode', 'registrationDisabled'],
  ['change-email: 401', new ClientError(401), 'changeEmail', 'wrongCode'],
  ['change-email: 410', new ClientError(410), 'changeEmail', 'expiredCode'],
  ['change-email: 403', new ClientError(403), 'changeEmail', 'emailTaken'],
  // SRP
  ['srp: 401', new ClientError(401), 'srpLogin', 'incorrectPassword'],
  ['srp: TOO_MANY_WRONG_ATTEMPTS', new ApiError('', 'TOO_MANY_WRONG_ATTEMPTS', 410), 'srpLogin', 'tooManyAttempts'],
  [
    'srp: TOO_MANY_UNVERIFIED_SESSIONS',
    new ApiError('', 'TOO_MANY_UNVERIFIED_SESSIONS', 429),
    'srpLogin',
    'tooManyAttempts',
  ],
  ['srp: SESSION_ALREADY_VERIFIED', new ApiError('', 'SESSION_ALREADY_VERIFIED', 410), 'srpLogin', 'sessionExpired'],
  ['srp: a wrong key (password)', workerError('DecryptionError'), 'srpLogin', 'incorrectPassword'],
  ['srp: a bad B', workerError('SrpError'), 'srpLogin', 'serverNotAuthentic'],
  ['srp setup: 401 {}', new ClientError(401), 'srpSetup', 'serverNotAuthentic'],
  ['srp setup: 401 invalid token', new ClientError(401, 'invalid token'), 'srpSetup', 'sessionExpired'],
  // Two-factor
  ['2fa verify: 401', new ClientError(401), 'twoFactorVerify', 'wrongCode'],
  ['2fa verify: 404', new ClientError(404), 'twoFactorVerify', 'sessionExpired'],
  ['2fa verify: 429', new ClientError(429), 'twoFactorVerify', 'tooManyAttempts'],
  ['2fa recover: 404', new ClientError(404), 'twoFactorRecover', 'twoFactorRecoveryUnavailable'],
  [
    'passkey recover: 400 not configured',
    new ApiError('Passkey reset is not configured', 'BAD_REQUEST', 400),
    'twoFactorRecover',
    'twoFactorRecoveryUnavailable',
  ],
  ['another 400', new ApiError('bad', 'BAD_REQUEST', 400), 'verifyCode', 'unknown'],
  ['2fa remove: 403', new ClientError(403), 'twoFactorRemove', 'wrongRecoveryKey'],
  ['2fa remove: 404', new ClientError(404), 'twoFactorRemove', 'sessionExpired'],
  ['2fa remove: a wrong key', workerError('DecryptionError'), 'twoFactorRemove', 'wrongRecoveryKey'],
  // Authenticated calls
  ['session: 401 {}', new ClientError(401), 'session', 'sessionExpired'],
  ['session: 401 token expired', new ClientError(401, 'token expired'), undefined, 'sessionExpired'],
  // Crypto
  ['recovery: a wrong key', workerError('DecryptionError'), 'recoveryKey', 'wrongRecoveryKey'],
  ['recovery: 23 words', workerError('RecoveryKeyError', 'wordCount'), 'recoveryKey', 'recoveryKeyWordCount'],
  ['recovery: a foreign word', workerError('RecoveryKeyError', 'unknownWord'), undefined, 'recoveryKeyUnknownWord'],
  ['recovery: a bad checksum', workerError('RecoveryKeyError', 'checksum'), undefined, 'recoveryKeyChecksum'],
  ['recovery: bad hex', workerError('RecoveryKeyError', 'invalidHex'), undefined, 'recoveryKeyInvalid'],
  ['recovery: empty', workerError('RecoveryKeyError', 'empty'), undefined, 'recoveryKeyInvalid'],
  ['absurd KDF parameters', workerError('KdfParamsError'), 'srpLogin', 'kdfUnsupported'],
  ['too little memory', workerError('InsufficientMemoryError'), undefined, 'insufficientMemory'],
  // Anything else
  ['a decryption failure elsewhere', workerError('DecryptionError'), 'session', 'unknown'],
  ['a 400', new ApiError('bad', 'BAD_REQUEST', 400), 'verifyCode', 'unknown'],
  ['a plain Error', new Error('boom'), undefined, 'unknown'],
  ['a string', 'boom', undefined, 'unknown'],
];

test.each(mappings)('%s → %s', (_, error, context, kind) => {
  const mapped = toAccountsError(error, context);
  expect(mapped).toBeInstanceOf(AccountsError);
  expect(mapped.kind).toBe(kind);
  expect(mapped.cause).toBe(error);
});

test('an AccountsError passes unchanged, whatever the context', () => {
  const error = new AccountsError('wrongRecoveryKey');
  expect(toAccountsError(error, 'verifyCode')).toBe(error);
  expect(errorMessageKey(error)).toBe('error_wrongRecoveryKey');
});

test('errorMessageKey maps anything thrown to an accounts key', () => {
  expect(errorMessageKey(new NetworkError())).toBe('error_network');
  expect(errorMessageKey(undefined)).toBe('error_unknown');
});

test('isAccountsError checks the kind', () => {
  const error = new AccountsError('wrongCode');
  expect(isAccountsError(error)).toBe(true);
  expect(isAccountsError(error, 'expiredCode', 'wrongCode')).toBe(true);
  expect(isAccountsError(error, 'expiredCode')).toBe(false);
  expect(isAccountsError(new Error('x'))).toBe(false);
});

test.each(supportedLocales)('%s has a message for every kind', (locale) => {
  const file = path.join(
    path.dirname(require.resolve('@ente/shared/i18n/locales.ts')),
    'locales',
    locale,
    'accounts.json',
  );
  const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const missing = accountsErrorKinds.filter((kind) => !messages[`error_${kind}`]);
  expect(missing).toEqual([]);
});

test('an AccountsError is a Failure carrying the key of its message', () => {
  const e = new AccountsError('wrongCode');
  expect(e).toBeInstanceOf(Failure);
  expect(e.translationKey).toBe('accounts:error_wrongCode');
  expect(e.message).toBe('accounts: wrongCode');
});
