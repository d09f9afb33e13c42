// Exports that keep a code as text (Bitwarden's `login.totp`, Proton's `content.uri`): an `otpauth://` URI,
// a `steam://SECRET`, or (Bitwarden) a bare Base32 secret. The text is read with the app's own URI parser,
// then the fields go through `codeFromFields` like every other importer's, so that names are cleaned and
// limits checked the same way; the format's own metadata (item name, folder, favourite) fills the rest.
import { oneLine } from '../clean-text.ts';
import { CodeParseError, parseCodeURI } from '../code-uri.ts';
import { codeFromFields, type EntryOutcome } from './otp-entry.ts';
import type { SkipReason } from './types.ts';

/** What the file says about the code around its text (each of unknown JSON type until checked). */
export interface TextContext {
  /** Issuer to use when the text names none (Bitwarden's item name). */
  issuer: unknown;
  /** Account to use when the text names none (Bitwarden's username, Proton's name). */
  account: unknown;
  tags?: unknown;
  note?: unknown;
  pinned?: unknown;
}

/** The code that `text` holds, or why it is skipped. */
export function codeFromText(text: string, context: TextContext): EntryOutcome {
  const trimmed = text.trim();
  const fallbackIssuer = typeof context.issuer === 'string' ? context.issuer : '';
  const fallbackAccount = typeof context.account === 'string' ? context.account : '';
  const extras = { tags: context.tags, note: context.note, pinned: context.pinned };

  if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) {
    // A bare secret: SHA-1, 6 digits, 30 s, named by the item.
    return codeFromFields({
      type: 'totp',
      issuer: context.issuer,
      account: context.account,
      secret: trimmed,
      algorithm: undefined,
      digits: undefined,
      period: undefined,
      counter: undefined,
      ...extras,
    });
  }

  let parsed;
  try {
    parsed = parseCodeURI(trimmed);
  } catch (e) {
    if (!(e instanceof CodeParseError)) throw e;
    const { reason, detail } = skipOf(e);
    return {
      skipped: {
        issuer: oneLine(fallbackIssuer),
        account: oneLine(fallbackAccount),
        reason,
        ...(detail ? { detail } : {}),
      },
    };
  }
  // `steam://SECRET` carries no names: the parser calls it "Steam" with no account.
  const bareSteam = /^steam:/i.test(trimmed);
  const issuer = bareSteam || parsed.issuer.trim() === '' ? fallbackIssuer || parsed.issuer : parsed.issuer;
  const account = bareSteam || parsed.account.trim() === '' ? fallbackAccount || parsed.account : parsed.account;
  const fromURI = parsed.display;
  return codeFromFields({
    type: parsed.type,
    issuer,
    account,
    secret: parsed.secret,
    algorithm: parsed.algorithm,
    digits: parsed.digits,
    period: parsed.period,
    counter: parsed.counter,
    tags: [...fromURI.tags, ...(Array.isArray(context.tags) ? (context.tags as unknown[]) : [])],
    note: typeof context.note === 'string' && context.note.trim() !== '' ? context.note : fromURI.note,
    pinned: context.pinned === true || fromURI.pinned,
  });
}

/** The skip reason (and the offending value, never the secret) for a URI the parser refused. */
function skipOf(error: CodeParseError): { reason: SkipReason; detail?: string } {
  const value = error.values.type ?? error.values.algorithm ?? error.values.value;
  const detail = value === undefined ? undefined : oneLine(value).slice(0, 40) || undefined;
  switch (error.errorKey) {
    case 'parse.unsupportedType':
      return { reason: 'unsupportedType', detail };
    case 'parse.unsupportedAlgorithm':
      return { reason: 'unsupportedAlgorithm', detail };
    case 'parse.invalidDigits':
      return { reason: 'unsupportedDigits', detail };
    case 'parse.invalidPeriod':
      return { reason: 'badPeriod', detail };
    case 'parse.invalidCounter':
      return { reason: 'badCounter', detail };
    case 'parse.missingSecret':
    case 'parse.invalidSecret':
      return { reason: 'badSecret' };
    default:
      return { reason: 'malformed' };
  }
}
