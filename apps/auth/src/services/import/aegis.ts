// Aegis vault JSON, plain and encrypted (as Aegis documents its vault format). `{version: 1, header: {slots, params}, db}`:
// plain files have `db` as an object; encrypted ones have it as Base64 AES-256-GCM ciphertext (tag in
// `header.params`) under a random master key, which each password slot holds wrapped with a key that scrypt
// derives from the password. Entries map to codes; group names become tags, `favorite` pins, `note` is kept.
import { scryptKey } from '@ente/crypto/scrypt.ts';

import { aesGcmOpen, base64Bytes, concatBytes, hexBytes, utf8 } from './import-crypto.ts';
import { codeFromFields, contentText, isRecord, parseJSON, splitOutcomes, type EntryOutcome } from './otp-entry.ts';
import { ImportFormatError, ImportPasswordError, type ImportOptions, type ImportResult } from './types.ts';

/** Whether the content looks like an Aegis vault (plain or encrypted); Aegis writes `header` before `db`. */
export function looksLikeAegis(content: string | Uint8Array): boolean {
  const head = typeof content === 'string' ? content.slice(0, 4096) : new TextDecoder().decode(content.slice(0, 4096));
  return /^\uFEFF?\s*\{/.test(head) && /"header"\s*:\s*\{/.test(head) && /"slots"\s*:/.test(head);
}

/** Reads an Aegis vault export. */
export async function parseAegis(content: string | Uint8Array, options: ImportOptions = {}): Promise<ImportResult> {
  const file = parseJSON(contentText(content), 'the Aegis file');
  if (!isRecord(file) || !isRecord(file.header)) throw new ImportFormatError('not an Aegis vault');
  if (isRecord(file.db)) return { format: 'aegis', ...readDatabase(file.db) };
  if (typeof file.db !== 'string') throw new ImportFormatError('the Aegis vault has no database');
  const db = await decryptDatabase(file.header, file.db, options.password);
  return { format: 'aegis-encrypted', ...readDatabase(db) };
}

interface PasswordSlot {
  key: Uint8Array;
  nonce: Uint8Array;
  tag: Uint8Array;
  salt: Uint8Array;
  n: number;
  r: number;
  p: number;
}

// Aegis uses N=2^15, r=8, p=1 (32 MiB, well under a second); a file asking for far more memory or work
// could freeze the tab, so it is refused, and only the first few password slots are tried.
const maxScryptMemory = 256 * 1024 * 1024;
const maxScryptWork = 2 ** 22; // N·r·p, 16 times Aegis' own
const maxPasswordSlots = 4;

function passwordSlot(slot: unknown): PasswordSlot | undefined {
  // Type 1 is a password slot; raw (0) and biometric (2) slots cannot be opened away from the phone.
  if (!isRecord(slot) || slot.type !== 1 || !isRecord(slot.key_params)) return undefined;
  const key = hexBytes(slot.key, 32);
  const nonce = hexBytes(slot.key_params.nonce, 12);
  const tag = hexBytes(slot.key_params.tag, 16);
  const salt =
    typeof slot.salt === 'string' && slot.salt.length <= 256 && slot.salt.length % 2 === 0
      ? hexBytes(slot.salt, slot.salt.length / 2)
      : undefined;
  const { n, r, p } = slot;
  if (!key || !nonce || !tag || !salt || salt.length === 0) return undefined;
  if (typeof n !== 'number' || typeof r !== 'number' || typeof p !== 'number') return undefined;
  const powerOfTwo = Number.isSafeInteger(n) && n > 1 && (n & (n - 1)) === 0;
  if (!powerOfTwo || !Number.isInteger(r) || r < 1 || !Number.isInteger(p) || p < 1 || p > 16) return undefined;
  if (128 * n * r > maxScryptMemory || n * r * p > maxScryptWork) return undefined;
  return { key, nonce, tag, salt, n, r, p };
}

async function decryptDatabase(
  header: Record<string, unknown>,
  encrypted: string,
  password: string | undefined,
): Promise<Record<string, unknown>> {
  // Everything that can be checked without the password is checked first, so that a damaged file is
  // reported as damaged rather than as a password problem.
  const params = isRecord(header.params) ? header.params : {};
  const nonce = hexBytes(params.nonce, 12);
  const tag = hexBytes(params.tag, 16);
  const ciphertext = base64Bytes(encrypted);
  if (!nonce || !tag || !ciphertext) throw new ImportFormatError('the Aegis vault header or database is damaged');
  const slots = (Array.isArray(header.slots) ? header.slots : [])
    .map(passwordSlot)
    .filter((slot) => slot !== undefined);
  if (slots.length === 0) throw new ImportFormatError('the Aegis vault has no usable password slot');
  slots.splice(maxPasswordSlots);
  if (password === undefined || password === '') throw new ImportPasswordError('needed');

  let masterKey: Uint8Array | undefined;
  for (const slot of slots) {
    const slotKey = await scryptKey(utf8(password), slot.salt, { N: slot.n, r: slot.r, p: slot.p });
    masterKey = await aesGcmOpen(slotKey, slot.nonce, concatBytes(slot.key, slot.tag));
    if (masterKey) break;
  }
  if (!masterKey) throw new ImportPasswordError('wrong');
  if (masterKey.length !== 32) throw new ImportFormatError('the Aegis vault key is damaged');

  const plain = await aesGcmOpen(masterKey, nonce, concatBytes(ciphertext, tag));
  if (!plain) throw new ImportFormatError('the Aegis database does not decrypt');
  const db = parseJSON(new TextDecoder().decode(plain), 'the Aegis database');
  if (!isRecord(db)) throw new ImportFormatError('the Aegis database is not an object');
  return db;
}

function readDatabase(db: Record<string, unknown>): Pick<ImportResult, 'codes' | 'skipped'> {
  if (!Array.isArray(db.entries)) throw new ImportFormatError('the Aegis database has no entries');
  // Version 3 lists groups by uuid; version 2 put a group name on each entry instead.
  const groupNames = new Map<string, string>();
  for (const group of Array.isArray(db.groups) ? db.groups : []) {
    if (isRecord(group) && typeof group.uuid === 'string' && typeof group.name === 'string') {
      groupNames.set(group.uuid, group.name);
    }
  }
  return splitOutcomes(db.entries.map((entry: unknown) => readEntry(entry, groupNames)));
}

function readEntry(entry: unknown, groupNames: Map<string, string>): EntryOutcome {
  if (!isRecord(entry)) return { skipped: { issuer: '', account: '', reason: 'malformed' } };
  const tags: string[] = [];
  if (Array.isArray(entry.groups)) {
    for (const uuid of entry.groups) {
      const name = typeof uuid === 'string' ? groupNames.get(uuid) : undefined;
      if (name !== undefined) tags.push(name);
    }
  }
  if (typeof entry.group === 'string') tags.push(entry.group);
  const info = entry.info ?? {};
  const outcome = codeFromFields({
    type: entry.type,
    issuer: entry.issuer,
    account: entry.name,
    secret: isRecord(info) ? info.secret : undefined,
    algorithm: isRecord(info) ? info.algo : undefined,
    digits: isRecord(info) ? info.digits : undefined,
    period: isRecord(info) ? info.period : undefined,
    counter: isRecord(info) ? info.counter : undefined,
    tags,
    note: entry.note,
    pinned: entry.favorite,
  });
  // An `info` that is not an object is a damaged entry, unless the type alone already rules it out.
  if (!isRecord(info) && 'skipped' in outcome && outcome.skipped.reason !== 'unsupportedType') {
    return { skipped: { issuer: outcome.skipped.issuer, account: outcome.skipped.account, reason: 'malformed' } };
  }
  return outcome;
}
