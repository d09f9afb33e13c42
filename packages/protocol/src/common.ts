// Building blocks of the wire format (protocol "Conventions"): b64 strings with their decoded sizes,
// UUIDs, µs timestamps. Sizes are checked from the text, without decoding, so this package stays free
// of the crypto library.
import * as z from 'zod/mini';

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

/** What is wrong with an address for mail (see `emailAddressProblem`). */
export type EmailAddressProblem = 'empty' | 'form' | 'domain';

const emailForm = /^[^\s@]+@[^\s@]+$/;
/** A hostname label: letters (any script), digits and marks, with inner hyphens, 1 to 63 characters. */
const domainLabel = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;
/** A top-level domain: letters only (none is numeric), or an IDN in its xn-- form. */
const topLevelDomain = /^(?:[\p{L}\p{M}]{2,63}|xn--[a-z0-9-]{1,59})$/u;
/** Names that never reach a mail server on the internet (RFC 2606, RFC 6761, RFC 7686 and common LAN names). */
const localTopLevelDomains = new Set([
  'localhost',
  'localdomain',
  'local',
  'lan',
  'home',
  'internal',
  'invalid',
  'test',
  'example',
  'onion',
  'arpa',
]);

/**
 * Why `address` (already trimmed and lower-cased) is not an address that a mail server on the internet
 * could deliver to, or undefined when it is one (docs/protocol.md#conventions): `empty`; `form` when it
 * is not `local@domain` without spaces; `domain` when the domain is not an internet host name, i.e.
 * at least two dot-separated labels of letters, digits and inner hyphens, a top-level domain of
 * letters (so no IP address, bracketed or not), and no local name such as `localhost` or `.local`.
 */
export function emailAddressProblem(address: string): EmailAddressProblem | undefined {
  if (address === '') return 'empty';
  if (!emailForm.test(address)) return 'form';
  const domain = address.slice(address.indexOf('@') + 1);
  if (domain.length > 253) return 'domain';
  const labels = domain.split('.');
  const tld = labels.at(-1) ?? '';
  if (labels.length < 2 || !labels.every((label) => domainLabel.test(label))) return 'domain';
  if (!topLevelDomain.test(tld) || localTopLevelDomains.has(tld)) return 'domain';
  return undefined;
}

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
