// Which format a file is, from its content only (never its name), and reading it with that format's
// parser. JSON files are told apart by their shape (the keys each app writes, in any order); text files
// by their first line; andOTP's encrypted backup, which has no magic number, is tried last. Runs inside
// the import worker (import.worker.ts), or in-process in tests.
import { parseAegis } from './aegis.ts';
import { looksLikeAndOTPEncrypted, parseAndOTP } from './andotp.ts';
import { looksLikeBitwardenCSV, parseBitwardenCSV, parseBitwardenJSON } from './bitwarden.ts';
import { parseEnteEncrypted } from './ente-encrypted.ts';
import { parseFreeOTPPlus } from './freeotp-plus.ts';
import { contentText, isRecord } from './otp-entry.ts';
import { looksLikeOtpauthList, parseEnteLegacyJSON, parseOtpauthList } from './otpauth-list.ts';
import { parseProton } from './proton.ts';
import { parseTwoFAS } from './twofas.ts';
import { ImportFormatError, type ImportOptions, type ImportResult } from './types.ts';

type Parser = (content: string | Uint8Array, options: ImportOptions) => Promise<ImportResult>;

/** Reads an export of any format we know; `ImportFormatError` when it is none of them. */
export async function parseImport(content: string | Uint8Array, options: ImportOptions = {}): Promise<ImportResult> {
  const text = contentText(content);
  if (text.trim() === '') throw new ImportFormatError('the file is empty');
  return (parserOf(content, text) ?? refuse)(text, options);
}

function refuse(): never {
  throw new ImportFormatError('this is not an export of any app we can read');
}

function parserOf(content: string | Uint8Array, text: string): Parser | undefined {
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      // Damaged JSON: the parser of the shape its start suggests says what is wrong.
      return (
        jsonParserOf(partialShape(text)) ?? (() => Promise.reject(new ImportFormatError('the file is not valid JSON')))
      );
    }
    return jsonParserOf(json);
  }
  if (looksLikeOtpauthList(text)) return parseOtpauthList;
  if (looksLikeBitwardenCSV(text)) return parseBitwardenCSV;
  if (typeof content !== 'string' && looksLikeAndOTPEncrypted(content)) {
    return (_text, options) => parseAndOTP(content, options);
  }
  return undefined;
}

/** The parser for a JSON value, by the keys each format's top level has. */
function jsonParserOf(json: unknown): Parser | undefined {
  if (Array.isArray(json)) return parseAndOTP;
  if (!isRecord(json)) return undefined;
  const has = (...keys: string[]) => keys.every((key) => key in json);
  if (has('kdfParams', 'encryptedData', 'encryptionNonce')) return parseEnteEncrypted;
  if (has('header', 'db')) return parseAegis;
  if (has('services') || has('servicesEncrypted')) return parseTwoFAS;
  if (has('version', 'entries') || has('version', 'salt', 'content')) return parseProton;
  if (Array.isArray(json.items) && isRecord(json.items[0]) && 'rawData' in json.items[0]) {
    return () => parseEnteLegacyJSON(json);
  }
  if (has('items') && !has('tokens')) return parseBitwardenJSON;
  if (has('tokens')) return parseFreeOTPPlus;
  return undefined;
}

/** The top-level keys of a truncated JSON object (those written before the damage), as an object. */
function partialShape(text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) return [];
  const keys = [...trimmed.slice(0, 64 * 1024).matchAll(/"([A-Za-z_]+)"\s*:/g)].map((match) => match[1] ?? '');
  return Object.fromEntries(keys.map((key) => [key, true]));
}
