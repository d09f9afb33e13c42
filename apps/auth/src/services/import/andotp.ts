// andOTP backups. Plain: a JSON array of `{secret, issuer, label, digits, type, algorithm, period | counter,
// tags, …}`. Encrypted (`.json.aes`): a 4-byte big-endian PBKDF2 iteration count, a 12-byte salt and a
// 12-byte nonce, then AES-256-GCM `ciphertext ‖ tag` of the same JSON, keyed by PBKDF2-HMAC-SHA1 of the
// password. The older encrypted format (key = SHA-256 of the password, no header) is not read.
import { aesGcmOpen, pbkdf2Key } from './import-crypto.ts';
import {
  codeFromFields,
  contentText,
  isRecord,
  maxImportBytes,
  parseJSON,
  splitOutcomes,
  type EntryOutcome,
} from './otp-entry.ts';
import {
  ImportFormatError,
  ImportPasswordError,
  ImportSizeError,
  type ImportOptions,
  type ImportResult,
} from './types.ts';

const headerLength = 4 + 12 + 12;
const tagLength = 16;
// andOTP picks 140 000–160 000 iterations; much more would only be a way to hang the page.
const minIterations = 1_000;
const maxIterations = 10_000_000;

/** Whether the content looks like a plain andOTP backup: a JSON array of objects with andOTP's keys. */
export function looksLikeAndOTP(content: string | Uint8Array): boolean {
  const head = typeof content === 'string' ? content.slice(0, 4096) : new TextDecoder().decode(content.slice(0, 4096));
  return (
    /^\uFEFF?\s*\[\s*\{/.test(head) && /"label"\s*:/.test(head) && /"secret"\s*:/.test(head) && /"type"\s*:/.test(head)
  );
}

/**
 * Whether the bytes look like an encrypted andOTP backup. The format has no magic number, only a
 * plausible iteration count; try the other formats first.
 */
export function looksLikeAndOTPEncrypted(content: string | Uint8Array): boolean {
  if (typeof content === 'string' || content.length < headerLength + tagLength) return false;
  const iterations = new DataView(content.buffer, content.byteOffset, 4).getUint32(0);
  return iterations >= minIterations && iterations <= maxIterations;
}

/** Reads an andOTP backup, plain (text or bytes) or encrypted (bytes). */
export async function parseAndOTP(content: string | Uint8Array, options: ImportOptions = {}): Promise<ImportResult> {
  if (typeof content !== 'string' && !startsLikeJSON(content)) {
    const plain = await decrypt(content, options.password);
    return { format: 'andotp-encrypted', ...readEntries(plain) };
  }
  return { format: 'andotp', ...readEntries(contentText(content)) };
}

/** Whether the first byte that is not white space (after a UTF-8 BOM) opens JSON. */
function startsLikeJSON(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x5b || bytes[i] === 0x7b; // '[' or '{'
}

async function decrypt(bytes: Uint8Array, password: string | undefined): Promise<string> {
  if (bytes.length > maxImportBytes) throw new ImportSizeError(maxImportBytes);
  if (bytes.length < headerLength + tagLength) throw new ImportFormatError('not an andOTP backup');
  const iterations = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  if (iterations < minIterations || iterations > maxIterations) throw new ImportFormatError('not an andOTP backup');
  if (password === undefined || password === '') throw new ImportPasswordError('needed');
  const salt = bytes.slice(4, 16);
  const nonce = bytes.slice(16, headerLength);
  const key = await pbkdf2Key(password, salt, iterations, 'SHA-1');
  const plain = await aesGcmOpen(key, nonce, bytes.slice(headerLength));
  // GCM cannot tell a wrong password from a damaged file; the password is by far the likelier cause.
  if (!plain) throw new ImportPasswordError('wrong');
  return new TextDecoder().decode(plain);
}

function readEntries(text: string): Pick<ImportResult, 'codes' | 'skipped'> {
  const entries = parseJSON(text, 'the andOTP backup');
  if (!Array.isArray(entries)) throw new ImportFormatError('an andOTP backup is a list of entries');
  return splitOutcomes(entries.map(readEntry));
}

function readEntry(entry: unknown): EntryOutcome {
  if (!isRecord(entry)) return { skipped: { issuer: '', account: '', reason: 'malformed' } };
  return codeFromFields({
    type: entry.type,
    issuer: entry.issuer,
    account: entry.label,
    secret: entry.secret,
    algorithm: entry.algorithm,
    digits: entry.digits,
    period: entry.period,
    counter: entry.counter,
    tags: entry.tags,
  });
}
