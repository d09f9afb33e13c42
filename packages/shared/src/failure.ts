// One way to fail (docs/architecture.md#conventions): what every client workspace asks of a failure.
// - `httpStatusOf`, `errorCodeOf`: the HTTP status and the typed API code of a failed request, read from
//   the fields (not by class), so that they work on an error that crossed a worker boundary and cost a
//   page no import of the HTTP client.
// - `Failure`: the base of every error our code throws to say something to the user. It carries the
//   translation key of its message (`<namespace>:<key>`) and the values to interpolate; each domain
//   extends it with a union of its own keys (AppError: `errors:…`, AccountsError: `accounts:error_…`,
//   the auth app's vault, parse and import errors: `codes:…` and `import:…`). The message is for logs.
// This module is in the first load of every page: it imports nothing.

/** The HTTP status of a failed request that the server answered (ApiError, ClientError, ServerError). */
export function httpStatusOf(e: unknown): number | undefined {
  const status = (e as { httpStatus?: unknown } | null)?.httpStatus;
  return typeof status === 'number' ? status : undefined;
}

/** The typed error code (`ApiError.errCode`, docs/protocol.md#errors) of a failed request, if any. */
export function errorCodeOf(e: unknown): string | undefined {
  const code = (e as { errCode?: unknown } | null)?.errCode;
  return typeof code === 'string' ? code : undefined;
}

export interface FailureOptions {
  cause?: unknown;
  /** What the translated message interpolates. */
  values?: Record<string, string>;
  /** The text for logs; by default the translation key. */
  message?: string;
}

/** A failure our code can explain: `translationKey` (`<namespace>:<key>`) names its message. */
export class Failure<Key extends string = string> extends Error {
  readonly values: Record<string, string>;

  constructor(
    readonly translationKey: Key,
    { cause, values = {}, message = translationKey }: FailureOptions = {},
  ) {
    super(message, { cause });
    this.name = 'Failure';
    this.values = values;
  }
}

/** The translation key of a Failure, or undefined for anything else. */
export function translationKeyOf(e: unknown): string | undefined {
  // `instanceof` narrows a generic class to Failure<any>.
  return e instanceof Failure ? (e as Failure).translationKey : undefined;
}
