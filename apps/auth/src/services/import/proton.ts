// Proton Authenticator JSON export: `{version: 1, entries: [{id, content: {uri, entry_type, name}, note}]}`,
// where `uri` is an otpauth URI, or `steam://SECRET` for Steam entries (then `name` is the account).
// The encrypted export (`{version, salt, content}`) needs Argon2id to derive its key and is not read yet:
// it is recognised and refused with a clear reason.
import { contentText, isRecord, parseJSON, splitOutcomes, type EntryOutcome } from './otp-entry.ts';
import { codeFromText } from './otp-text.ts';
import { ImportFormatError, type ImportOptions, type ImportResult } from './types.ts';

/** Whether the content looks like a Proton Authenticator export (plain or encrypted). */
export function looksLikeProton(content: string | Uint8Array): boolean {
  const head =
    typeof content === 'string' ? content.slice(0, 4096) : new TextDecoder().decode(content.subarray(0, 4096));
  if (!/^\uFEFF?\s*\{\s*"version"\s*:\s*\d+\s*,/.test(head)) return false;
  const plain = /"entries"\s*:\s*\[/.test(head) && /"entry_type"\s*:/.test(head);
  const encrypted = /"salt"\s*:\s*"/.test(head) && /"content"\s*:\s*"/.test(head);
  return plain || encrypted || /^\uFEFF?\s*\{\s*"version"\s*:\s*\d+\s*,\s*"entries"\s*:\s*\[\s*\]/.test(head);
}

/** Reads a plain Proton Authenticator export; an encrypted one is reported as unsupported. */
export function parseProton(content: string | Uint8Array, _options: ImportOptions = {}): Promise<ImportResult> {
  // Nothing here awaits; running it in a promise keeps every failure a rejection.
  return Promise.resolve().then(() => readExport(content));
}

function readExport(content: string | Uint8Array): ImportResult {
  const file = parseJSON(contentText(content), 'the Proton Authenticator export');
  if (!isRecord(file)) throw new ImportFormatError('not a Proton Authenticator export');
  if (typeof file.salt === 'string' && typeof file.content === 'string') {
    throw new ImportFormatError(
      'encrypted Proton Authenticator exports are not supported yet: export without a password',
    );
  }
  if (!Array.isArray(file.entries)) throw new ImportFormatError('the Proton Authenticator export has no entries');
  return { format: 'proton', ...splitOutcomes(file.entries.map(readEntry)) };
}

function readEntry(entry: unknown): EntryOutcome {
  const content = isRecord(entry) ? entry.content : undefined;
  if (!isRecord(entry) || !isRecord(content) || typeof content.uri !== 'string') {
    const name = isRecord(content) && typeof content.name === 'string' ? content.name : '';
    return { skipped: { issuer: '', account: oneLine(name), reason: 'malformed' } };
  }
  // `name` is what the app shows as the account; the URI's own label wins when it has one.
  return codeFromText(content.uri, { issuer: '', account: content.name, note: entry.note });
}

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f-\u009f]/g;

function oneLine(text: string): string {
  return text.replace(controls, '').trim();
}
