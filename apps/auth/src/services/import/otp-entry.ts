// What the JSON importers (Aegis, andOTP, FreeOTP+) share: reading the file's text, and turning one
// entry's fields, already picked out of the format's shape, into the vault's CodeData or into the reason it
// is skipped. Values of the wrong JSON type never throw: the entry is reported as skipped instead.
import { multiLine, oneLine } from '../clean-text.ts';
import { normalisedTags } from '../code-edits.ts';
import { CodeParseError, codeURI, emptyDisplay, maxPeriod, normalisedSecret, parseCodeURI } from '../code-uri.ts';
import type { CodeData, OTPAlgorithm } from '../types.ts';
import { ImportFormatError, ImportSizeError, type SkippedEntry, type SkipReason } from './types.ts';

/** Larger files are refused before parsing: real exports are far smaller, even Aegis ones with icons. */
export const maxImportBytes = 32 * 1024 * 1024;

/** One entry as a format holds it, each field still of unknown JSON type. */
export interface EntryFields {
  /** 'totp' | 'hotp' | 'steam' in any case; anything else is an unsupported type. */
  type: unknown;
  issuer: unknown;
  account: unknown;
  /** Base32 text (spaces, padding and lower case allowed). */
  secret: unknown;
  /** 'SHA1' | 'SHA256' | 'SHA512' in any case, absent for SHA-1. */
  algorithm: unknown;
  digits: unknown;
  period: unknown;
  counter: unknown;
  tags?: unknown;
  note?: unknown;
  pinned?: unknown;
}

export type EntryOutcome = { code: CodeData } | { skipped: SkippedEntry };

/** The content as text: bytes are read as UTF-8 (a leading BOM dropped). Too large → ImportFormatError. */
export function contentText(content: string | Uint8Array): string {
  const size = typeof content === 'string' ? content.length : content.byteLength;
  if (size > maxImportBytes) throw new ImportSizeError(maxImportBytes);
  const text = typeof content === 'string' ? content : new TextDecoder().decode(content);
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** JSON.parse that reports damage as ImportFormatError. */
export function parseJSON(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ImportFormatError(`${what} is not valid JSON`);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The code of one entry, or why it is skipped (with the issuer and account as the file has them). */
export function codeFromFields(fields: EntryFields): EntryOutcome {
  const issuer = singleLine(fields.issuer);
  const account = singleLine(fields.account);
  const skip = (reason: SkipReason, detail?: unknown): EntryOutcome => ({
    skipped: { issuer: issuer ?? '', account: account ?? '', reason, ...detailOf(detail) },
  });
  if (issuer === undefined || account === undefined) return skip('malformed');

  if (typeof fields.type !== 'string') return skip('malformed');
  const type = fields.type.trim().toLowerCase();
  if (type !== 'totp' && type !== 'hotp' && type !== 'steam') return skip('unsupportedType', type);

  if (typeof fields.secret !== 'string') return skip(fields.secret == null ? 'badSecret' : 'malformed');
  const secret = normalisedSecret(fields.secret);
  if (secret === undefined) return skip('badSecret');

  let algorithm: OTPAlgorithm = 'sha1';
  if (fields.algorithm != null) {
    if (typeof fields.algorithm !== 'string') return skip('malformed');
    const name = fields.algorithm.trim().toLowerCase().replace('-', '');
    if (name !== 'sha1' && name !== 'sha256' && name !== 'sha512') {
      return skip('unsupportedAlgorithm', fields.algorithm);
    }
    algorithm = name;
  }

  const digits = integerField(fields.digits, 6);
  if (digits === 'malformed') return skip('malformed');
  if (!Number.isInteger(digits) || digits < 4 || digits > 10) return skip('unsupportedDigits', digits);

  let period = 30;
  let counter = 0;
  if (type === 'hotp') {
    const value = integerField(fields.counter, 0);
    if (value === 'malformed') return skip('malformed');
    if (!Number.isSafeInteger(value) || value < 0) return skip('badCounter', value);
    counter = value;
  } else {
    const value = integerField(fields.period, 30);
    if (value === 'malformed') return skip('malformed');
    if (!Number.isInteger(value) || value <= 0 || value > maxPeriod) return skip('badPeriod', value);
    period = value;
  }

  const display = emptyDisplay();
  display.tags = Array.isArray(fields.tags)
    ? normalisedTags(fields.tags.map(singleLine).filter((tag) => tag !== undefined))
    : [];
  display.note = typeof fields.note === 'string' ? multiLine(fields.note) : '';
  display.pinned = fields.pinned === true;

  const data: CodeData = {
    type,
    issuer,
    account,
    secret,
    algorithm,
    digits,
    period,
    counter,
    display,
    unknownParams: [],
  };
  // Written and read back as the vault will store it, so that the preview shows what the vault will hold
  // (a TOTP whose issuer is "Steam" is Steam, Steam is SHA-1/5/30, as everywhere else in the app).
  try {
    return { code: parseCodeURI(codeURI(data)) };
  } catch (e) {
    if (e instanceof CodeParseError) return skip('malformed');
    throw e;
  }
}

/** Sorts outcomes into the result's two lists. */
export function splitOutcomes(outcomes: EntryOutcome[]): { codes: CodeData[]; skipped: SkippedEntry[] } {
  const codes: CodeData[] = [];
  const skipped: SkippedEntry[] = [];
  for (const outcome of outcomes) {
    if ('code' in outcome) codes.push(outcome.code);
    else skipped.push(outcome.skipped);
  }
  return { codes, skipped };
}

/** A numeric field: absent → `fallback`; not a number → 'malformed' (the caller checks the range). */
function integerField(value: unknown, fallback: number): number | 'malformed' {
  if (value === undefined || value === null) return fallback;
  return typeof value === 'number' ? value : 'malformed';
}

/** A one-line text field: absent → '', not a string → undefined. */
function singleLine(value: unknown): string | undefined {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return undefined;
  return oneLine(value);
}

/** `detail` of a skipped entry: short, one line (it names a type, an algorithm or a number, never a secret). */
function detailOf(value: unknown): { detail?: string } {
  if (typeof value !== 'string' && typeof value !== 'number') return {};
  const text = oneLine(String(value)).slice(0, 40);
  return text === '' ? {} : { detail: text };
}
