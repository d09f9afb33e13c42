// The error bodies the API answers with (docs/protocol.md#errors). The server builds them with these schemas and
// the clients parse them. Clients may branch on `code` (and the HTTP status), never on a message text.
import * as z from 'zod/mini';

/** A typed API error: `{code, message}`; the message may be empty. */
export const typedErrorBodySchema = z.object({ code: z.string(), message: z.string() });
export type TypedErrorBody = z.infer<typeof typedErrorBodySchema>;

/** A middleware error (token checks, rate limits): `{error}`. */
export const middlewareErrorBodySchema = z.object({ error: z.string() });
export type MiddlewareErrorBody = z.infer<typeof middlewareErrorBodySchema>;

/** A mapped plain error: an empty object; the status alone says what went wrong. */
export const plainErrorBodySchema = z.strictObject({});
export type PlainErrorBody = z.infer<typeof plainErrorBodySchema>;

/** The `code` values of typed API errors that clients may see (docs/protocol.md#errors). */
export const apiErrorCodes = [
  'USER_NOT_REGISTERED',
  'USER_SIGNUP_INCOMPLETE',
  'USER_ALREADY_REGISTERED',
  'EMAIL_MFA_ENABLED',
  'TOO_MANY_UNVERIFIED_SESSIONS',
  'SESSION_ALREADY_VERIFIED',
  'TOO_MANY_WRONG_ATTEMPTS',
  'BAD_REQUEST',
  'NOT_FOUND',
  'AUTH_KEY_NOT_CREATED',
  'ENTITY_LIMIT_REACHED',
  'CONFLICT',
  'ALREADY_EXISTS',
  'SESSION_ALREADY_CLAIMED',
  'SESSION_NOT_VERIFIED',
  'INVALID_SESSION',
  'SESSION_EXPIRED',
  'MAX_PASSKEYS_REACHED',
  'PASSKEY_SIGN_COUNT_NOT_INCREASED',
  'EMAIL_NOT_SENT',
  'LOCKER_REGISTRATION_DISABLED',
  'LOCKER_ROLLOUT_LIMIT',
  'ACCOUNT_SCHEDULED_FOR_DELETION',
  'COLLECTION_DELETED',
  'COLLECTION_NOT_EMPTY',
  'OBJECT_SIZE_FETCH_FAILED',
  'FILE_NOT_FOUND_IN_ALBUM',
  'FILE_IN_TRASH',
  'LINK_DEVICE_LIMIT_EXCEEDED',
  'PUBLIC_COLLECT_DISABLED',
  'CAST_DEVICE_LIMIT_REACHED',
] as const;
export type ApiErrorCode = (typeof apiErrorCodes)[number];

/** The texts of middleware errors (docs/protocol.md#errors), in a zod-free module of their own. */
export { middlewareErrorTexts } from './error-texts.ts';
