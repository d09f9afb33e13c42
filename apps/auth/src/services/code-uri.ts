// Reading and writing the `otpauth://` URI that each authenticator entity holds (docs/protocol.md, "The
// code URI" and "Parsing rules"): Ente's web parser with what it gets wrong put right, so that a code
// reads here as it does in Ente's mobile app, and written back loses nothing we did not understand.
// See: [Note: Reading a code URI]
//
// [Note: Reading a code URI]
// The URI is split by hand rather than with WHATWG `URL`: browsers disagree on where a non-special
// scheme's type goes (host or path), and a bare `#` (legacy accounts hold one) would cut off the query.
// Every `#` is therefore taken literally (the retry with `%23` that both Ente clients do, done first).
// - type: the host, any case (`totp`, `hotp`, `steam`); a `totp` whose issuer is "Steam" (any case) or
//   that says `encoder=steam` (KeePassXC) is Steam, as mobile treats it; `steam://SECRET` (Bitwarden,
//   Proton) is Steam too. Steam is always SHA-1, 30 s, 5 characters, whatever the parameters say.
// - label: percent-decoded (a stray `%` stays), case kept. With a non-empty `issuer` parameter: when
//   the label starts with that issuer and `:` (issuers may contain `:`), the rest is the account;
//   otherwise the part after the first `:`, or the whole label when it has none (mobile's rule). The
//   legacy `period` suffixes old builds glued to the issuer are cut unless the label repeats the issuer
//   exactly (so an issuer we wrote comes back as written). With an empty `issuer` parameter, the label's
//   part before `:` is the issuer. Without the parameter, Ente web's rule: the part before `:`, else
//   before `-`, else the whole label.
// - query: form decoding (`+` is a space). For each parameter we read, the last occurrence counts, as in
//   mobile's URI library; every other parameter, and earlier duplicates, stay in `unknownParams` in order.
//   `codeURI` writes those first and ours after them, so every reader sees our values.
// - `codeDisplay`: see [Note: codeDisplay keys].
import { Failure } from '@ente/shared/failure.ts';

import { normalisedSecret } from './base32.ts';
import { wellFormed } from './clean-text.ts';
import type { CodeData, CodeDisplay, OTPAlgorithm, OTPType } from './types.ts';

export { normalisedSecret } from './base32.ts';

/** Keys of section `parse` of the `codes` namespace, as the full key `t()` takes. */
export type ParseErrorKey =
  | 'parse.notOtpauth'
  | 'parse.migrationLink'
  | 'parse.unsupportedType'
  | 'parse.missingSecret'
  | 'parse.invalidSecret'
  | 'parse.invalidDigits'
  | 'parse.invalidPeriod'
  | 'parse.invalidCounter'
  | 'parse.unsupportedAlgorithm'
  | 'parse.migrationInvalid';

/** Why a text is not a usable code; `errorKey` (with `values` to interpolate) says it to the user. */
export class CodeParseError extends Failure<`codes:${ParseErrorKey}`> {
  constructor(
    readonly errorKey: ParseErrorKey,
    values: Record<string, string> = {},
  ) {
    super(`codes:${errorKey}`, { values, message: `Cannot read the code: ${errorKey}` });
    this.name = 'CodeParseError';
  }
}

/** The longest period we accept, in seconds (a day). */
export const maxPeriod = 86_400;

/** A `codeDisplay` with every key at its default. */
export function emptyDisplay(): CodeDisplay {
  return {
    pinned: false,
    trashed: false,
    lastUsedAt: 0,
    tapCount: 0,
    tags: [],
    note: '',
    position: 0,
    iconSrc: '',
    iconID: '',
    unknown: {},
  };
}

/** Whether an issuer makes a TOTP code a Steam code, as in Ente's mobile app. */
export function isSteamIssuer(issuer: string): boolean {
  return issuer.toLowerCase() === 'steam';
}

/** Reads a code URI. Throws `CodeParseError` when the text is not a usable code. */
export function parseCodeURI(uri: string): CodeData {
  const text = uri.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'steam') return steamSecretCode(text.slice('steam:'.length));
  if (scheme === 'otpauth-migration') throw new CodeParseError('parse.migrationLink');
  if (scheme === 'motp') throw new CodeParseError('parse.unsupportedType', { type: 'motp' });
  if (scheme !== 'otpauth') throw new CodeParseError('parse.notOtpauth');

  const rest = text.slice('otpauth:'.length).replaceAll('#', '%23').replace(/^\/+/, '');
  const queryStart = rest.indexOf('?');
  const head = queryStart < 0 ? rest : rest.slice(0, queryStart);
  const slash = head.indexOf('/');
  const host = percentDecode(slash < 0 ? head : head.slice(0, slash)).toLowerCase();
  const label = slash < 0 ? '' : percentDecode(head.slice(slash + 1));
  const params = queryStart < 0 ? [] : splitQuery(rest.slice(queryStart + 1));
  if (host === '') throw new CodeParseError('parse.notOtpauth');
  if (host !== 'totp' && host !== 'hotp' && host !== 'steam') {
    throw new CodeParseError('parse.unsupportedType', { type: host.slice(0, 20) });
  }

  const read = new ParamReader(params);
  const { issuer, account } = issuerAndAccount(label, read.value('issuer'));
  let type: OTPType = host;
  const encoder = params.find(([name]) => name === 'encoder')?.[1];
  if (type === 'totp' && (isSteamIssuer(issuer) || encoder?.toLowerCase() === 'steam')) type = 'steam';

  const secretText = read.value('secret');
  if (secretText === undefined || secretText.trim() === '') throw new CodeParseError('parse.missingSecret');
  const secret = normalisedSecret(secretText);
  if (secret === undefined) throw new CodeParseError('parse.invalidSecret');

  const algorithmText = read.value('algorithm');
  const digitsText = read.value('digits');
  const periodText = read.value('period');
  const steam = type === 'steam';
  const counterText = type === 'hotp' ? read.value('counter') : undefined;
  const displayText = read.value('codeDisplay');
  const display = displayText === undefined ? emptyDisplay() : parseDisplay(displayText);
  if (display === undefined) read.keep('codeDisplay');

  return {
    type,
    issuer,
    account,
    secret,
    algorithm: steam ? 'sha1' : parseAlgorithm(algorithmText),
    digits: steam ? 5 : parseInteger(digitsText, 6, 4, 10, 'parse.invalidDigits'),
    period: steam ? 30 : parseInteger(periodText, 30, 1, maxPeriod, 'parse.invalidPeriod'),
    counter: parseInteger(counterText, 0, 0, Number.MAX_SAFE_INTEGER, 'parse.invalidCounter'),
    display: display ?? emptyDisplay(),
    unknownParams: read.unread(),
  };
}

/**
 * The URI of a code as Ente's mobile app writes it: `otpauth://<type>/<issuer>:<account>?algorithm=…
 * &digits=…&issuer=…&period=…&secret=…[&counter=…]&codeDisplay=<JSON>`, with every display key (ours
 * and the unknown ones) and the unknown parameters (placed first, so that ours win for every reader).
 * `parseCodeURI(codeURI(x))` equals `x` for every `x` that `parseCodeURI` can return.
 */
export function codeURI(data: CodeData): string {
  const label = `${encodeLabel(data.issuer)}:${encodeLabel(data.account)}`;
  const params: [string, string][] = [
    ...data.unknownParams,
    ['algorithm', data.algorithm.toUpperCase()],
    ['digits', String(data.digits)],
    ['issuer', data.issuer],
    ['period', String(data.period)],
    ['secret', data.secret],
  ];
  if (data.type === 'hotp') params.push(['counter', String(data.counter)]);
  params.push(['codeDisplay', JSON.stringify(displayJSON(data.display))]);
  const query = params.map(([name, value]) => `${encodeQuery(name)}=${encodeQuery(value)}`).join('&');
  return `otpauth://${data.type}/${label}?${query}`;
}

// [Note: codeDisplay keys]
// The keys of codeDisplay (docs/protocol.md#authenticator-data) are typed; every other key goes, as read, to `display.unknown` and is written back
// after ours, so icons, positions or counters other apps store survive every edit. A typed key that is
// null or of the wrong type (a string `pinned`, a fractional `position`, a non-string tag) reads as its
// default and is written back as that default: Ente's mobile app fails on such a value (its reader is
// typed), so writing the default repairs the entry there, and no reader could have used the value. A
// `codeDisplay` that is not a JSON object (after mobile's `%2C` repair and cutting a `#…` tail left by
// an old fragment bug) reads as the defaults and its text stays in `unknownParams`, written back before
// our new `codeDisplay` (mobile reads the last one), so it is not lost.

const typedKeys = new Set([
  'pinned',
  'trashed',
  'lastUsedAt',
  'tapCount',
  'tags',
  'note',
  'position',
  'iconSrc',
  'iconID',
]);

function parseDisplay(text: string): CodeDisplay | undefined {
  const candidates = [text, text.replaceAll('%2C', ','), text.slice(0, text.lastIndexOf('}#') + 1)];
  for (const candidate of candidates) {
    let json: unknown;
    try {
      json = JSON.parse(candidate);
    } catch {
      continue;
    }
    if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
      return displayFromJSON(json as Record<string, unknown>);
    }
  }
  return undefined;
}

function displayFromJSON(json: Record<string, unknown>): CodeDisplay {
  const display = emptyDisplay();
  const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);
  const int = (value: unknown) => (Number.isSafeInteger(value) ? (value as number) : 0);
  const str = (value: unknown) => (typeof value === 'string' ? value : '');
  display.pinned = bool(json.pinned, false);
  display.trashed = bool(json.trashed, false);
  display.lastUsedAt = int(json.lastUsedAt);
  display.tapCount = int(json.tapCount);
  display.position = int(json.position);
  display.tags = Array.isArray(json.tags) ? json.tags.filter((tag) => typeof tag === 'string') : [];
  display.note = str(json.note);
  display.iconSrc = str(json.iconSrc);
  display.iconID = str(json.iconID);
  // Object.fromEntries defines own properties, so a key such as "__proto__" stays an ordinary key.
  display.unknown = Object.fromEntries(Object.entries(json).filter(([key]) => !typedKeys.has(key)));
  return display;
}

function displayJSON(display: CodeDisplay): Record<string, unknown> {
  const int = (value: number) => (Number.isSafeInteger(value) ? value : Math.round(value) || 0);
  return Object.fromEntries([
    ['pinned', display.pinned],
    ['trashed', display.trashed],
    ['lastUsedAt', int(display.lastUsedAt)],
    ['tapCount', int(display.tapCount)],
    ['tags', display.tags],
    ['note', display.note],
    ['position', int(display.position)],
    ['iconSrc', display.iconSrc],
    ['iconID', display.iconID],
    ...Object.entries(display.unknown).filter(([key]) => !typedKeys.has(key)),
  ]);
}

/** The parameters of a query, in order, by name; remembers which ones it handed out. */
class ParamReader {
  private readonly used = new Set<number>();

  constructor(private readonly params: [string, string][]) {}

  /** The last value of `name`, now counted as read. */
  value(name: string): string | undefined {
    const index = this.lastIndex(name);
    if (index < 0) return undefined;
    this.used.add(index);
    return this.params[index]?.[1];
  }

  /** Puts the last `name` back among the unread ones. */
  keep(name: string): void {
    this.used.delete(this.lastIndex(name));
  }

  unread(): [string, string][] {
    return this.params.filter((_, index) => !this.used.has(index));
  }

  private lastIndex(name: string): number {
    for (let index = this.params.length - 1; index >= 0; index--) {
      if (this.params[index]?.[0] === name) return index;
    }
    return -1;
  }
}

function issuerAndAccount(label: string, issuerParam: string | undefined): { issuer: string; account: string } {
  const colon = label.indexOf(':');
  const afterColon = colon < 0 ? label : label.slice(colon + 1);
  if (issuerParam === undefined) {
    if (colon >= 0) return { issuer: label.slice(0, colon), account: afterColon };
    const dash = label.indexOf('-');
    return { issuer: dash > 0 ? label.slice(0, dash) : label, account: label };
  }
  if (issuerParam === '') return { issuer: colon < 0 ? '' : label.slice(0, colon), account: afterColon };
  if (label.startsWith(`${issuerParam}:`)) {
    return { issuer: issuerParam, account: label.slice(issuerParam.length + 1) };
  }
  return { issuer: withoutPeriodSuffix(issuerParam), account: afterColon };
}

/**
 * An issuer without the suffix old Ente builds glued to it (`…&period=30`, `…period=30`, `…period`),
 * when something that is not white space precedes it.
 */
function withoutPeriodSuffix(issuer: string): string {
  const match = /^(.*?)(?:&?period=\d*|period)$/s.exec(issuer);
  const kept = match?.[1];
  return kept !== undefined && /\S$/.test(kept) ? kept : issuer;
}

function parseAlgorithm(text: string | undefined): OTPAlgorithm {
  const name = (text ?? '')
    .trim()
    .toLowerCase()
    .replace(/^algorithm\./, '')
    .replace('-', '');
  if (name === '' || name === 'sha1') return 'sha1';
  if (name === 'sha256' || name === 'sha512') return name;
  throw new CodeParseError('parse.unsupportedAlgorithm', { algorithm: text ?? '' });
}

function parseInteger(
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
  errorKey: ParseErrorKey,
): number {
  if (text === undefined || text.trim() === '') return fallback;
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw new CodeParseError(errorKey, { value: text });
  return value;
}

/** `steam://SECRET` (Bitwarden, Proton). */
function steamSecretCode(rest: string): CodeData {
  const secretText = percentDecode(rest.replace(/^\/+/, ''));
  if (secretText.trim() === '') throw new CodeParseError('parse.missingSecret');
  const secret = normalisedSecret(secretText);
  if (secret === undefined) throw new CodeParseError('parse.invalidSecret');
  return {
    type: 'steam',
    issuer: 'Steam',
    account: '',
    secret,
    algorithm: 'sha1',
    digits: 5,
    period: 30,
    counter: 0,
    display: emptyDisplay(),
    unknownParams: [],
  };
}

function splitQuery(query: string): [string, string][] {
  return query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      const value = equals < 0 ? '' : part.slice(equals + 1);
      return [formDecode(name), formDecode(value)];
    });
}

function formDecode(text: string): string {
  return percentDecode(text.replaceAll('+', ' '));
}

/** Percent-decoding that never throws: a `%` not followed by two hex digits stays as it is. */
function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      const bytes = run
        .slice(1)
        .split('%')
        .map((hex) => parseInt(hex, 16));
      return new TextDecoder().decode(new Uint8Array(bytes));
    });
  }
}

function encodeLabel(text: string): string {
  return encodeURIComponent(wellFormed(text)).replaceAll('%40', '@');
}

function encodeQuery(text: string): string {
  return encodeURIComponent(wellFormed(text)).replaceAll('%20', '+');
}

/** The URI of the legacy form `{rawData, display}`, with `display` as its codeDisplay if it has none. */
export function legacyURI(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { rawData, display } = value as { rawData?: unknown; display?: unknown };
  if (typeof rawData !== 'string') return undefined;
  if (typeof display !== 'object' || display === null || /[?&]codeDisplay=/.test(rawData)) return rawData;
  const separator = rawData.includes('?') ? '&' : '?';
  return `${rawData}${separator}codeDisplay=${encodeURIComponent(JSON.stringify(display))}`;
}
