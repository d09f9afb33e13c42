// Text exports that hold one URI per line:
// - a plain list of `otpauth://` URIs (Aegis' "plain text" export, many others): format 'otpauth-list';
// - Ente's plain-text export, the same lines each with a `codeDisplay` parameter (tags, pinned, trashed,
//   note, and keys other apps wrote, all kept as the app's URI parser reads them): format 'ente-plain';
// - Google Authenticator export links, `otpauth-migration://offline?data=…`, as text (what tools that read
//   its QR codes print): format 'google-migration'.
// Blank lines and lines starting with `#` (comments in such text files) are ignored; CRLF and surrounding
// spaces are tolerated. Ente's own importer splits on commas (its export writes a literal comma as %2C), so
// several URIs joined by commas on one line are read too. A line that is not a usable code is skipped with
// the reason the URI parser gives; a text whose first line is not a URI is not a file of this kind.
import { multiLine, oneLine } from '../clean-text.ts';
import { normalisedTags } from '../code-edits.ts';
import { CodeParseError, codeURI, legacyURI, parseCodeURI, type ParseErrorKey } from '../code-uri.ts';
import { decodeMigrationURI } from '../migration.ts';
import type { CodeData } from '../types.ts';
import { contentText, isRecord } from './otp-entry.ts';
import {
  ImportFormatError,
  type ImportFormat,
  type ImportOptions,
  type ImportResult,
  type SkippedEntry,
  type SkipReason,
} from './types.ts';

/** The schemes a line of such a file starts with (the app's URI parser reads all of them). */
const uriStart = /^(?:otpauth|otpauth-migration|motp|steam):\/\//i;
/** A comma that starts another URI (Ente's comma-separated form). */
const uriSeparator = /,(?=\s*(?:otpauth|otpauth-migration|motp|steam):\/\/)/i;
const migrationStart = /^otpauth-migration:/i;

/** How much of the start of the content the detector looks at: the first URI line is near the top. */
const detectBytes = 64 * 1024;

/**
 * Whether the content looks like a list of URIs: its first line that is neither blank nor a `#` comment
 * starts with a code URI scheme. (A CSV or JSON export that holds URIs starts otherwise.)
 */
export function looksLikeOtpauthList(content: string | Uint8Array): boolean {
  const head =
    typeof content === 'string'
      ? content.slice(0, detectBytes)
      : new TextDecoder().decode(content.subarray(0, detectBytes));
  const first = meaningfulLines(head.replace(/^\uFEFF/, ''))[0];
  return first !== undefined && uriStart.test(first);
}

/** Reads a list of code URIs (plain, Ente's, or Google Authenticator export links). */
export function parseOtpauthList(content: string | Uint8Array, _options: ImportOptions = {}): Promise<ImportResult> {
  // Nothing here awaits; running it in a promise keeps every failure a rejection, as with the other parsers.
  return Promise.resolve().then(() => readList(content));
}

/**
 * Reads Ente's legacy JSON export, `{"items": [{"rawData": "<uri>", "display": {…codeDisplay keys…}}]}`:
 * each item is read as the line of the plain export it stands for.
 */
export function parseEnteLegacyJSON(json: unknown): Promise<ImportResult> {
  return Promise.resolve().then(() => {
    const items = isRecord(json) && Array.isArray(json.items) ? json.items : undefined;
    if (!items) throw new ImportFormatError('the Ente export has no items');
    const lines: string[] = [];
    const skipped: SkippedEntry[] = [];
    for (const item of items) {
      const uri = legacyURI(item);
      if (uri === undefined || !uriStart.test(uri)) skipped.push({ issuer: '', account: '', reason: 'malformed' });
      else lines.push(uri.replaceAll('\n', ' '));
    }
    const read = lines.length ? readList(lines.join('\n')) : { codes: [], skipped: [] };
    return { format: 'ente-plain', codes: read.codes, skipped: [...read.skipped, ...skipped] };
  });
}

function readList(content: string | Uint8Array): ImportResult {
  const textLines = meaningfulLines(contentText(content));
  // As strict as the detector: the text starts with a URI (a CSV or prose that mentions one does not).
  if (!uriStart.test(textLines[0] ?? '')) throw new ImportFormatError('the text does not start with a code URI');
  const lines = textLines.flatMap((line) =>
    uriStart.test(line) ? line.split(uriSeparator).map((part) => part.trim()) : [line],
  );

  const codes: CodeData[] = [];
  const skipped: SkippedEntry[] = [];
  let otpauthLines = 0;
  let migrationLines = 0;
  let withDisplay = false;
  for (const line of lines) {
    if (migrationStart.test(line)) {
      migrationLines++;
      readMigrationLine(line, codes, skipped);
      continue;
    }
    if (uriStart.test(line)) otpauthLines++;
    try {
      const code = parseCodeURI(line);
      // Ente's export writes codeDisplay on every line; a list without it is a plain list.
      if (/[?&]codeDisplay=/.test(line)) withDisplay = true;
      pushCode(cleaned(code), codes, skipped);
    } catch (error) {
      // Only ImportFormatError may leave a parser: anything else the URI reader throws is a bad line.
      const reason =
        error instanceof CodeParseError ? skipOf(error.errorKey, error.values) : { reason: 'malformed' as const };
      skipped.push({ ...namesOf(line), ...reason });
    }
  }

  let format: ImportFormat = 'otpauth-list';
  if (migrationLines > 0 && otpauthLines === 0) format = 'google-migration';
  else if (withDisplay) format = 'ente-plain';
  return { format, codes, skipped };
}

/** The lines that carry content: trimmed, neither blank nor a `#` comment. */
function meaningfulLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function readMigrationLine(line: string, codes: CodeData[], skipped: SkippedEntry[]): void {
  let part;
  try {
    part = decodeMigrationURI(line);
  } catch {
    // parse.migrationInvalid, or anything else its reader throws: the link is damaged.
    skipped.push({ issuer: '', account: '', reason: 'malformed' });
    return;
  }
  for (const code of part.codes) pushCode(cleaned(code), codes, skipped);
  for (const skip of part.skipped) {
    // The migration reader names an entry in one text ("issuer (account)"); it is shown as the issuer.
    skipped.push({ issuer: oneLine(skip.name).slice(0, 200), account: '', ...skipOf(skip.reasonKey, skip.values) });
  }
}

/**
 * The code as the vault will store it: written and read back, so that what the preview shows is what
 * the vault will hold. Cannot fail for what parseCodeURI returned, but a refusal is reported, not thrown.
 */
function pushCode(code: CodeData, codes: CodeData[], skipped: SkippedEntry[]): void {
  try {
    codes.push(parseCodeURI(codeURI(code)));
  } catch {
    skipped.push({ issuer: code.issuer, account: code.account, reason: 'malformed' });
  }
}

/** Names and tags without control characters (a hostile `%00` in a label), the note keeping its line breaks. */
function cleaned(code: CodeData): CodeData {
  return {
    ...code,
    issuer: oneLine(code.issuer),
    account: oneLine(code.account),
    display: {
      ...code.display,
      tags: normalisedTags(code.display.tags.map(oneLine)),
      note: multiLine(code.display.note),
    },
  };
}

/** The reason for a URI the parser refused, and the offending value (a type, an algorithm, a number). */
function skipOf(key: ParseErrorKey, values: Record<string, string>): { reason: SkipReason; detail?: string } {
  const reason = reasons[key] ?? 'malformed';
  // The secret is never among the values; the secret's errors carry no detail anyway.
  const value =
    reason === 'badSecret' || reason === 'malformed' ? undefined : (values.type ?? values.algorithm ?? values.value);
  const detail = value === undefined ? '' : oneLine(value).slice(0, 40);
  return detail === '' ? { reason } : { reason, detail };
}

const reasons: Partial<Record<ParseErrorKey, SkipReason>> = {
  'parse.unsupportedType': 'unsupportedType',
  'parse.unsupportedAlgorithm': 'unsupportedAlgorithm',
  'parse.invalidDigits': 'unsupportedDigits',
  'parse.missingSecret': 'badSecret',
  'parse.invalidSecret': 'badSecret',
  'parse.invalidPeriod': 'badPeriod',
  'parse.invalidCounter': 'badCounter',
};

/**
 * Best-effort names of a line the parser refused, for the preview: the label's issuer and account (and
 * the `issuer` parameter), as far as they can be read. Never the secret: only the label and `issuer`.
 */
function namesOf(line: string): { issuer: string; account: string } {
  const match = /^[a-z][a-z0-9+.-]*:\/*[^/?]*\/([^?]*)(?:\?(.*))?$/is.exec(line);
  if (!match) return { issuer: '', account: '' };
  const label = decoded(match[1] ?? '');
  const issuerParam = (match[2] ?? '')
    .split('&')
    .find((part) => part.startsWith('issuer='))
    ?.slice('issuer='.length);
  const colon = label.indexOf(':');
  const issuer = issuerParam !== undefined && issuerParam !== '' ? decoded(issuerParam.replaceAll('+', ' ')) : '';
  return {
    issuer: oneLine(issuer || (colon < 0 ? '' : label.slice(0, colon))).slice(0, 200),
    account: oneLine(colon < 0 ? label : label.slice(colon + 1)).slice(0, 200),
  };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
