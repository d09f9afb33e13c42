// Building blocks of the wire format (protocol "Conventions"): b64 strings with their decoded sizes,
// UUIDs, µs timestamps. Sizes are checked from the text, without decoding, so this package stays free
// of the crypto library.
import * as z from 'zod/mini';

import { emailAddressProblem, emailForm } from './email-address.ts';

const b64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const b64urlPattern = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}==|[A-Za-z0-9_-]{3}=)?$/;

/** The number of bytes a padded base64 (or base64url) string decodes to. */
export function decodedLength(value: string): number {
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return (value.length / 4) * 3 - padding;
}

/** The length checks a string may add: at least `min`, at most `max` characters. */
interface LengthOptions {
  min?: number;
  max?: number;
}

function lengthChecks({ min, max }: LengthOptions) {
  return [...(max === undefined ? [] : [z.maxLength(max)]), ...(min === undefined ? [] : [z.minLength(min)])];
}

function sizedBase64(pattern: RegExp, message: string, bytes: number | undefined, options: LengthOptions) {
  return z
    .string()
    .check(
      z.regex(pattern, message),
      ...lengthChecks(options),
      ...(bytes === undefined
        ? []
        : [z.refine<string>((value) => decodedLength(value) === bytes, `must decode to ${bytes} bytes`)]),
    );
}

/** Standard padded base64; with `bytes`, it must decode to exactly that many bytes. */
export function b64(bytes?: number, options: LengthOptions = {}) {
  return sizedBase64(b64Pattern, 'invalid base64 encoding', bytes, options);
}

/** URL-safe base64 with padding (tokens, 2FA and passkey session IDs). */
export function b64url(bytes?: number, options: LengthOptions = {}) {
  return sizedBase64(b64urlPattern, 'invalid base64url encoding', bytes, options);
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- the point is to refuse control characters
const controlCharacter = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * The rule for every piece of text a person or a client makes up (docs/protocol.md#conventions): well-formed
 * UTF-16, since an unpaired surrogate would reach the database as U+FFFD and so stand for another
 * string, and no C0 or C1 control character (NUL is refused by PostgreSQL, the others mean nothing in a
 * name or an address).
 */
export function isPlainText(value: string): boolean {
  return !loneSurrogate.test(value) && !controlCharacter.test(value);
}

/** The text rule as a check, for a string schema that adds checks of its own. */
export function plainText() {
  return z.refine<string>(isPlainText, 'must be text: no control characters or unpaired surrogates');
}

/** User-supplied text under the text rule, at most `max` (and at least `min`) UTF-16 code units. */
export function text(max: number, options: { min?: number } = {}) {
  return z.string().check(...lengthChecks({ max, min: options.min }), plainText());
}

export const uuid = z
  .string()
  .check(z.regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID'));

/** Integer microseconds since the Unix epoch. */
export const micros = z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER));

/** A µs value in a query string. */
export const microsParam = z.pipe(
  z.pipe(z.string().check(z.regex(/^\d{1,16}$/, 'must be a non-negative integer')), z.transform(Number)),
  micros,
);

/** User IDs are int64 serials; JSON carries them as numbers. */
export const userID = z.int().check(z.positive());

/**
 * An e-mail address as the server normalises it: trimmed and lower-cased (docs/protocol.md#users-and-e-mail). It must have
 * one "@" with text on both sides and no spaces, a domain that mail on the internet can reach
 * (`emailAddressProblem`), and pass the text rule.
 */
export const email = z.string().check(
  z.maxLength(320),
  plainText(),
  z.trim(),
  z.toLowerCase(),
  z.minLength(1, 'must not be empty'),
  z.regex(emailForm, 'must be an e-mail address'),
  z.refine(
    (address: string) => emailAddressProblem(address) !== 'domain',
    'must be at an internet domain, such as name@example.org (no IP address, no local name)',
  ),
);

/** A 6-digit code (OTT or TOTP); surrounding spaces are trimmed as museum does. */
export const sixDigitCode = z.pipe(
  z.pipe(
    z.string().check(z.maxLength(64)),
    z.transform((value: string) => value.replace(/\s/g, '')),
  ),
  z.string().check(z.regex(/^\d{6}$/, 'must be 6 digits')),
);

/** An empty JSON object (`{}`), the body of some successful answers. */
export const emptyObjectSchema = z.object({});
