// Proton Authenticator JSON export: `{version: 1, entries: [{id, content: {uri, entry_type, name}, note}]}`,
// where `uri` is an otpauth URI, or `steam://SECRET` for Steam entries (then `name` is the account).
// The encrypted export is `{version, salt, content}`: Argon2id (t=2, m=19 MiB, p=1, through the crypto
// worker) of the password and the salt gives an AES-256-GCM key; `content` is nonce (12) ‖ ciphertext ‖ tag,
// authenticated with a fixed context string, and holds the plain export's JSON.
import { oneLine } from '../clean-text.ts';
import { aesGcmOpen, base64Bytes, utf8 } from './import-crypto.ts';
import { contentText, isRecord, parseJSON, splitOutcomes, type EntryOutcome } from './otp-entry.ts';
import { codeFromText } from './otp-text.ts';
import {
  importCrypto,
  ImportFormatError,
  ImportPasswordError,
  type ImportOptions,
  type ImportResult,
} from './types.ts';

/** Proton Authenticator's Argon2id cost and the additional data of its AES-GCM. */
const protonKdf = { opsLimit: 2, memLimit: 19 * 1024 * 1024 };
const protonContext = 'proton.authenticator.export.v1';

/** Whether the content looks like a Proton Authenticator export (plain or encrypted). */
export function looksLikeProton(content: string | Uint8Array): boolean {
  const head =
    typeof content === 'string' ? content.slice(0, 4096) : new TextDecoder().decode(content.subarray(0, 4096));
  if (!/^\uFEFF?\s*\{\s*"version"\s*:\s*\d+\s*,/.test(head)) return false;
  const plain = /"entries"\s*:\s*\[/.test(head) && /"entry_type"\s*:/.test(head);
  const encrypted = /"salt"\s*:\s*"/.test(head) && /"content"\s*:\s*"/.test(head);
  return plain || encrypted || /^\uFEFF?\s*\{\s*"version"\s*:\s*\d+\s*,\s*"entries"\s*:\s*\[\s*\]/.test(head);
}

/** Reads a Proton Authenticator export, plain or (with its password) encrypted. */
export async function parseProton(content: string | Uint8Array, options: ImportOptions = {}): Promise<ImportResult> {
  const file = parseJSON(contentText(content), 'the Proton Authenticator export');
  if (!isRecord(file)) throw new ImportFormatError('not a Proton Authenticator export');
  if (typeof file.salt === 'string' || typeof file.content === 'string') {
    const inner = parseJSON(await openEncrypted(file, options), 'the opened Proton Authenticator export');
    return { ...readEntries(inner), format: 'proton-encrypted' };
  }
  return { ...readEntries(file), format: 'proton' };
}

async function openEncrypted(file: Record<string, unknown>, options: ImportOptions): Promise<string> {
  const salt = base64Bytes(file.salt);
  const sealed = base64Bytes(file.content);
  if (salt?.length !== 16 || !sealed || sealed.length < 12 + 16) {
    throw new ImportFormatError('the encrypted Proton Authenticator export is damaged');
  }
  if (options.password === undefined || options.password === '') throw new ImportPasswordError('needed');
  const crypto = await importCrypto(options);
  const key = base64Bytes(
    await crypto.argon2idKey(
      options.password,
      String(file.salt).replace(/\s+/g, ''),
      protonKdf.opsLimit,
      protonKdf.memLimit,
    ),
  );
  if (!key) throw new ImportFormatError('the key could not be derived');
  const plain = await aesGcmOpen(key, sealed.subarray(0, 12), sealed.subarray(12), utf8(protonContext));
  if (!plain) throw new ImportPasswordError('wrong');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    throw new ImportFormatError('the opened Proton Authenticator export is not text');
  }
}

function readEntries(file: unknown): Omit<ImportResult, 'format'> {
  if (!isRecord(file) || !Array.isArray(file.entries)) {
    throw new ImportFormatError('the Proton Authenticator export has no entries');
  }
  return splitOutcomes(file.entries.map(readEntry));
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
