// Bitwarden exports: the password manager's unencrypted JSON (`{encrypted: false, folders | collections,
// items}`), its CSV (`folder,favorite,type,name,notes,fields,[reprompt,]login_uri,login_username,
// login_password,login_totp`), and the Bitwarden Authenticator app's JSON (the same item shape). Only items
// with a TOTP are codes; the others are passwords, not skipped codes, and are left out of the result.
// `login.totp` is an otpauth URI, `steam://SECRET`, or a bare Base32 secret named by the item.
// Folders and collections become tags, favourites are pinned, the item's notes become the note.
import { oneLine } from '../clean-text.ts';
import { contentText, isRecord, parseJSON, splitOutcomes, type EntryOutcome } from './otp-entry.ts';
import { codeFromText } from './otp-text.ts';
import { ImportFormatError, type ImportOptions, type ImportResult } from './types.ts';

function head(content: string | Uint8Array, length = 4096): string {
  return typeof content === 'string' ? content.slice(0, length) : new TextDecoder().decode(content.subarray(0, length));
}

/** Whether the content looks like a Bitwarden JSON export (Bitwarden writes `encrypted` first). */
export function looksLikeBitwardenJSON(content: string | Uint8Array): boolean {
  const text = head(content);
  return (
    /^\uFEFF?\s*\{\s*"encrypted"\s*:/.test(text) && /"(items|folders|collections|passwordProtected)"\s*:/.test(text)
  );
}

/** Whether the content looks like a Bitwarden CSV export: its header names `login_totp`. */
export function looksLikeBitwardenCSV(content: string | Uint8Array): boolean {
  const firstLine =
    head(content)
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0] ?? '';
  const columns = firstLine.split(',').map((name) => name.trim());
  return columns.includes('login_totp') && columns.includes('name');
}

/** Reads a Bitwarden (or Bitwarden Authenticator) JSON export. */
export function parseBitwardenJSON(content: string | Uint8Array, _options: ImportOptions = {}): Promise<ImportResult> {
  // Nothing here awaits; running it in a promise keeps every failure a rejection.
  return Promise.resolve().then(() => readJSON(content));
}

/** Reads a Bitwarden CSV export. */
export function parseBitwardenCSV(content: string | Uint8Array, _options: ImportOptions = {}): Promise<ImportResult> {
  return Promise.resolve().then(() => readCSV(content));
}

function readJSON(content: string | Uint8Array): ImportResult {
  const file = parseJSON(contentText(content), 'the Bitwarden export');
  if (!isRecord(file)) throw new ImportFormatError('not a Bitwarden export');
  if (file.encrypted === true) {
    // Password-protected exports (PBKDF2/Argon2 + AES-CBC/HMAC) are not read yet; account-restricted ones
    // can only be opened by Bitwarden itself.
    throw new ImportFormatError('encrypted Bitwarden exports are not supported: export as unencrypted JSON');
  }
  if (!Array.isArray(file.items)) throw new ImportFormatError('the Bitwarden export has no items');

  const names = new Map<string, string>();
  for (const list of [file.folders, file.collections]) {
    for (const folder of Array.isArray(list) ? list : []) {
      if (isRecord(folder) && typeof folder.id === 'string' && typeof folder.name === 'string') {
        names.set(folder.id, folder.name);
      }
    }
  }

  const outcomes: EntryOutcome[] = [];
  for (const item of file.items as unknown[]) {
    if (!isRecord(item)) {
      outcomes.push({ skipped: { issuer: '', account: '', reason: 'malformed' } });
      continue;
    }
    const login = item.login;
    if (login === undefined || login === null) continue; // a note, card or identity
    const totp = isRecord(login) ? login.totp : undefined;
    if (totp === undefined || totp === null || totp === '') continue;
    if (typeof totp !== 'string') {
      const issuer = typeof item.name === 'string' ? item.name : '';
      outcomes.push({ skipped: { issuer: oneLine(issuer), account: '', reason: 'malformed' } });
      continue;
    }
    const tags: string[] = [];
    if (typeof item.folderId === 'string') tags.push(...optional(names.get(item.folderId)));
    if (Array.isArray(item.collectionIds)) {
      for (const id of item.collectionIds as unknown[])
        if (typeof id === 'string') tags.push(...optional(names.get(id)));
    }
    outcomes.push(
      codeFromText(totp, {
        issuer: item.name,
        account: isRecord(login) ? login.username : undefined,
        tags,
        note: item.notes,
        pinned: item.favorite,
      }),
    );
  }
  return { format: 'bitwarden-json', ...splitOutcomes(outcomes) };
}

function readCSV(content: string | Uint8Array): ImportResult {
  const rows = parseCSV(contentText(content));
  const header = rows.shift()?.map((name) => name.trim());
  const column = (name: string) => header?.indexOf(name) ?? -1;
  const totpColumn = column('login_totp');
  if (!header || totpColumn < 0 || column('name') < 0) {
    throw new ImportFormatError('the CSV has no Bitwarden header');
  }
  const field = (row: string[], name: string) => {
    const index = column(name);
    return index < 0 ? '' : (row[index] ?? '');
  };

  const outcomes: EntryOutcome[] = [];
  for (const row of rows) {
    const totp = row[totpColumn] ?? '';
    if (totp.trim() === '') continue;
    const folder = field(row, 'folder');
    outcomes.push(
      codeFromText(totp, {
        issuer: field(row, 'name'),
        account: field(row, 'login_username'),
        tags: folder.trim() === '' ? [] : [folder],
        note: field(row, 'notes'),
        pinned: field(row, 'favorite').trim() === '1',
      }),
    );
  }
  return { format: 'bitwarden-csv', ...splitOutcomes(outcomes) };
}

/**
 * The records of RFC 4180 CSV: comma-separated fields, records ended by CRLF or LF, fields in double quotes
 * may hold commas, line breaks and doubled quotes. Blank lines are dropped. A quote that is never closed
 * means a truncated file.
 */
export function parseCSV(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    field = '';
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const char = text.charAt(i);
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += char;
      }
      i++;
      continue;
    }
    if (char === '"' && field === '') {
      quoted = true;
    } else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      endRow();
      if (char === '\r' && text[i + 1] === '\n') i++;
    } else {
      // A quote inside an unquoted field is kept as it is, as spreadsheet programs do.
      field += char;
    }
    i++;
  }
  if (quoted) throw new ImportFormatError('the CSV ends inside a quoted field');
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

function optional(value: string | undefined): string[] {
  return value === undefined ? [] : [value];
}
