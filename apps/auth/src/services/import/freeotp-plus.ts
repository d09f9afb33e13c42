// FreeOTP+ JSON export: `{tokenOrder: [...], tokens: [{type: "TOTP" | "HOTP", algo, digits, period, counter,
// issuerExt, issuerInt, label, secret, …}]}`. The secret is the raw key as Java writes a byte[], a list of
// signed bytes (-128…127). The counter is taken as stored (FreeOTP+ keeps the one of the next code).
import { base32Encode } from '../base32.ts';
import { codeFromFields, contentText, isRecord, parseJSON, splitOutcomes, type EntryOutcome } from './otp-entry.ts';
import { ImportFormatError, type ImportOptions, type ImportResult } from './types.ts';

/** Whether the content looks like a FreeOTP+ export: an object with `tokens` and FreeOTP+'s keys. */
export function looksLikeFreeOTPPlus(content: string | Uint8Array): boolean {
  const head = typeof content === 'string' ? content.slice(0, 4096) : new TextDecoder().decode(content.slice(0, 4096));
  return /^\uFEFF?\s*\{/.test(head) && /"tokens"\s*:\s*\[/.test(head) && /"(tokenOrder|issuerExt)"\s*:/.test(head);
}

/** Reads a FreeOTP+ JSON export (never encrypted: the options are accepted for the common signature). */
export function parseFreeOTPPlus(content: string | Uint8Array, _options: ImportOptions = {}): Promise<ImportResult> {
  // Nothing here awaits; running it in a promise keeps every failure a rejection, as with the other parsers.
  return Promise.resolve().then(() => readExport(content));
}

function readExport(content: string | Uint8Array): ImportResult {
  const file = parseJSON(contentText(content), 'the FreeOTP+ file');
  if (!isRecord(file) || !Array.isArray(file.tokens)) throw new ImportFormatError('not a FreeOTP+ export');
  return { format: 'freeotp-plus', ...splitOutcomes(file.tokens.map(readToken)) };
}

function readToken(token: unknown): EntryOutcome {
  if (!isRecord(token)) return { skipped: { issuer: '', account: '', reason: 'malformed' } };
  // The names the user gave in the app (`issuerAlt`, `labelAlt`, older versions) win over the URI's.
  const issuer = firstString(token.issuerAlt, token.issuerExt, token.issuerInt);
  const account = firstString(token.labelAlt, token.label);
  const secret = secretText(token.secret);
  return codeFromFields({
    type: token.type,
    issuer,
    account,
    // A secret that is not a byte list is reported as a bad secret (never echoed back).
    secret: secret ?? '',
    algorithm: token.algo,
    digits: token.digits,
    period: token.period,
    counter: token.counter,
  });
}

function firstString(...values: unknown[]): unknown {
  return values.find((value) => typeof value === 'string' && value.trim() !== '') ?? values.find((v) => v != null);
}

/** Base32 of a list of bytes, signed or not; undefined when it is anything else. */
function secretText(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const bytes = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const byte: unknown = value[i];
    if (typeof byte !== 'number' || !Number.isInteger(byte) || byte < -128 || byte > 255) return undefined;
    bytes[i] = byte & 0xff;
  }
  return base32Encode(bytes);
}
