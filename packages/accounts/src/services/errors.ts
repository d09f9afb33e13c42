// The failures of the sign-in flows, each with a precise kind that a page shows as the translated
// message `accounts:error_<kind>` (docs/protocol.md#errors, docs/product.md#errors). The flows turn
// whatever they catch into an AccountsError with toAccountsError(e, context): the same HTTP status
// means different things at different endpoints (401 is a wrong code at /users/verify-email and a
// wrong password at /users/srp/verify-session), so the caller names the step it was in.
//
// This module is in the first load of every sign-in page, so it recognises the HTTP client's and the
// crypto worker's errors by their `name` (which survives the worker boundary) instead of importing
// their classes, which would pull the HTTP client, zod or libsodium into that load; the middleware texts
// come from the zod-free module of @ente/protocol, the base error from @ente/shared/failure.ts.
import { middlewareErrorTexts } from '@ente/protocol/error-texts.ts';
import { Failure } from '@ente/shared/failure.ts';

import '../strings.ts';

export const accountsErrorKinds = [
  'wrongCode',
  'expiredCode',
  'tooManyAttempts',
  'notRegistered',
  'alreadyRegistered',
  'signupIncomplete',
  'incorrectPassword',
  'emailTaken',
  'wrongRecoveryKey',
  'recoveryKeyWordCount',
  'recoveryKeyUnknownWord',
  'recoveryKeyChecksum',
  'recoveryKeyInvalid',
  'twoFactorRecoveryUnavailable',
  'sessionExpired',
  'kdfUnsupported',
  'insufficientMemory',
  'rateLimited',
  'emailNotSent',
  'network',
  'server',
  'registrationDisabled',
  'serverNotAuthentic',
  'unknown',
] as const;

export type AccountsErrorKind = (typeof accountsErrorKinds)[number];

/** The accounts-namespace key of a kind's message. */
export type AccountsErrorMessageKey = `error_${AccountsErrorKind}`;

/** A sign-in failure a page can explain: `kind` picks the message (`accounts:error_<kind>`). */
export class AccountsError extends Failure<`accounts:${AccountsErrorMessageKey}`> {
  constructor(
    readonly kind: AccountsErrorKind,
    options?: { cause?: unknown },
  ) {
    super(`accounts:error_${kind}`, { cause: options?.cause, message: `accounts: ${kind}` });
    this.name = 'AccountsError';
  }
}

/**
 * The step a failure happened in, which decides what an HTTP status means:
 * - `sendCode`: `POST /users/ott` with purpose signup, login or none;
 * - `sendChangeCode`: `POST /users/ott` with purpose change;
 * - `verifyCode`: `POST /users/verify-email`; `changeEmail`: `POST /users/change-email`;
 * - `srpLogin`: SRP create-session / verify-session, and opening the master key with the password;
 * - `srpSetup`: `POST /users/srp/setup`, `/complete`, `/update`;
 * - `twoFactorVerify`, `twoFactorRecover` (`GET …/recover`), `twoFactorRemove`;
 * - `recoveryKey`: opening the master key with the recovery key;
 * - `session`: any other authenticated call.
 */
export type ErrorContext =
  | 'sendCode'
  | 'sendChangeCode'
  | 'verifyCode'
  | 'changeEmail'
  | 'srpLogin'
  | 'srpSetup'
  | 'twoFactorVerify'
  | 'twoFactorRecover'
  | 'twoFactorRemove'
  | 'recoveryKey'
  | 'session';

/** Turns anything thrown during a step into an AccountsError (an AccountsError passes unchanged). */
export function toAccountsError(e: unknown, context?: ErrorContext): AccountsError {
  if (e instanceof AccountsError) return e;
  return new AccountsError(kindOf(e, context), { cause: e });
}

/** The accounts i18n key of the message for anything thrown, e.g. `error_wrongCode`. */
export function errorMessageKey(e: unknown): AccountsErrorMessageKey {
  return `error_${toAccountsError(e).kind}`;
}

/** True for an AccountsError of one of the given kinds. */
export function isAccountsError(e: unknown, ...kinds: AccountsErrorKind[]): e is AccountsError {
  return e instanceof AccountsError && (kinds.length === 0 || kinds.includes(e.kind));
}

function kindOf(e: unknown, context: ErrorContext | undefined): AccountsErrorKind {
  if (typeof e !== 'object' || e === null) return 'unknown';
  const fields = e as Record<string, unknown>;
  switch (fields.name) {
    case 'NetworkError':
      return 'network';
    case 'ServerError':
    case 'ResponseShapeError':
      return 'server';
    case 'ApiError':
    case 'ClientError':
      return typeof fields.httpStatus === 'number'
        ? httpKind(fields.httpStatus, stringField(fields.errCode), stringField(fields.detail), context)
        : 'unknown';
    case 'TokenMissingError':
    case 'TokenMirrorError':
      return 'sessionExpired';
    case 'KdfParamsError':
      return 'kdfUnsupported';
    case 'InsufficientMemoryError':
      return 'insufficientMemory';
    case 'SrpError':
      return 'serverNotAuthentic';
    case 'RecoveryKeyError':
      return recoveryKeyKind(fields.reason);
    case 'DecryptionError':
      if (context === 'srpLogin') return 'incorrectPassword';
      if (context === 'recoveryKey' || context === 'twoFactorRemove') return 'wrongRecoveryKey';
      return 'unknown';
    default:
      return 'unknown';
  }
}

function recoveryKeyKind(reason: unknown): AccountsErrorKind {
  switch (reason) {
    case 'wordCount':
      return 'recoveryKeyWordCount';
    case 'unknownWord':
      return 'recoveryKeyUnknownWord';
    case 'checksum':
      return 'recoveryKeyChecksum';
    default:
      return 'recoveryKeyInvalid';
  }
}

/** What a failed request means, by its typed code, its middleware text and its status, in that order. */
function httpKind(
  status: number,
  code: string | undefined,
  detail: string | undefined,
  context: ErrorContext | undefined,
): AccountsErrorKind {
  switch (code) {
    case 'USER_NOT_REGISTERED':
      return 'notRegistered';
    case 'USER_SIGNUP_INCOMPLETE':
      return 'signupIncomplete';
    case 'USER_ALREADY_REGISTERED':
      return 'alreadyRegistered';
    case 'TOO_MANY_WRONG_ATTEMPTS':
    case 'TOO_MANY_UNVERIFIED_SESSIONS':
      return 'tooManyAttempts';
    case 'SESSION_ALREADY_VERIFIED':
    case 'INVALID_SESSION':
      return 'sessionExpired';
    case 'EMAIL_NOT_SENT':
      return 'emailNotSent';
  }
  if (detail === middlewareErrorTexts.rateLimited) return 'rateLimited';
  if (
    detail === middlewareErrorTexts.missingToken ||
    detail === middlewareErrorTexts.invalidToken ||
    detail === middlewareErrorTexts.tokenExpired
  )
    return 'sessionExpired';
  if (status >= 500) return 'server';
  switch (status) {
    case 400:
      // Passkey recovery that the account never configured.
      return context === 'twoFactorRecover' ? 'twoFactorRecoveryUnavailable' : 'unknown';
    case 401:
      return unauthorizedKind(context);
    case 403:
      return forbiddenKind(context);
    case 404:
      return notFoundKind(context);
    case 409:
      return context === 'sendCode' ? 'alreadyRegistered' : 'unknown';
    case 410:
      if (context === 'verifyCode' || context === 'changeEmail') return 'expiredCode';
      return context === 'srpLogin' || context === 'srpSetup' ? 'tooManyAttempts' : 'unknown';
    case 429:
      return context === 'verifyCode' ||
        context === 'changeEmail' ||
        context === 'twoFactorVerify' ||
        context === 'twoFactorRemove' ||
        context === 'srpLogin'
        ? 'tooManyAttempts'
        : 'rateLimited';
    default:
      return 'unknown';
  }
}

function unauthorizedKind(context: ErrorContext | undefined): AccountsErrorKind {
  switch (context) {
    case 'verifyCode':
    case 'changeEmail':
    case 'twoFactorVerify':
      return 'wrongCode';
    case 'srpLogin':
      return 'incorrectPassword';
    case 'srpSetup':
      // A plain 401 here is an M1 the server refused for a verifier it was just given.
      return 'serverNotAuthentic';
    default:
      return 'sessionExpired';
  }
}

function forbiddenKind(context: ErrorContext | undefined): AccountsErrorKind {
  switch (context) {
    case 'sendCode':
    case 'verifyCode':
      return 'registrationDisabled';
    case 'sendChangeCode':
    case 'changeEmail':
      return 'emailTaken';
    case 'twoFactorRemove':
      return 'wrongRecoveryKey';
    default:
      return 'unknown';
  }
}

function notFoundKind(context: ErrorContext | undefined): AccountsErrorKind {
  switch (context) {
    case 'sendCode':
      return 'notRegistered';
    case 'twoFactorVerify':
    case 'twoFactorRemove':
      return 'sessionExpired';
    case 'twoFactorRecover':
      return 'twoFactorRecoveryUnavailable';
    default:
      return 'unknown';
  }
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
