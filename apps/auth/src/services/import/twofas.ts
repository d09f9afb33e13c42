// 2FAS backups (`.2fas`), schema 3 and 4: `{services: [...], groups: [{id, name}], schemaVersion, …}`.
// Encrypted backups leave `services` empty and carry `servicesEncrypted` (the services array as JSON) and
// `reference` (a fixed text, there to check the password), each `Base64(ciphertext ‖ tag):Base64(salt):
// Base64(iv)`, AES-256-GCM under PBKDF2-HMAC-SHA256(password, salt, 10 000 iterations). Groups become tags.
import { oneLine } from '../clean-text.ts';
import { aesGcmOpen, base64Bytes, pbkdf2Key } from './import-crypto.ts';
import { codeFromFields, contentText, isRecord, parseJSON, splitOutcomes, type EntryOutcome } from './otp-entry.ts';
import { ImportFormatError, ImportPasswordError, type ImportOptions, type ImportResult } from './types.ts';

const iterations = 10_000;
const ivLength = 12;
const tagLength = 16;
// 2FAS uses a 256-byte salt; anything far larger is not a 2FAS file.
const maxSaltLength = 1024;
const supportedSchemas = new Set([3, 4]);

/**
 * Whether the content looks like a 2FAS backup: a JSON object that opens with `services` (2FAS writes it
 * first) and names a `schemaVersion` near its start or end (schema 3 puts it after the services).
 */
export function looksLikeTwoFAS(content: string | Uint8Array): boolean {
  const window = 64 * 1024;
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const head = typeof content === 'string' ? content.slice(0, window) : decode(content.subarray(0, window));
  if (!/^\uFEFF?\s*\{\s*"services"\s*:\s*\[/.test(head)) return false;
  const tail = typeof content === 'string' ? content.slice(-window) : decode(content.subarray(-window));
  return /"schemaVersion"\s*:/.test(head) || /"schemaVersion"\s*:/.test(tail);
}

/** Reads a 2FAS backup, plain or encrypted. */
export async function parseTwoFAS(content: string | Uint8Array, options: ImportOptions = {}): Promise<ImportResult> {
  const file = parseJSON(contentText(content), 'the 2FAS backup');
  if (!isRecord(file) || !('services' in file)) throw new ImportFormatError('not a 2FAS backup');
  if (typeof file.schemaVersion !== 'number' || !supportedSchemas.has(file.schemaVersion)) {
    const version = typeof file.schemaVersion === 'number' ? ` ${String(file.schemaVersion).slice(0, 12)}` : '';
    throw new ImportFormatError(`2FAS schema version${version} is not supported`);
  }
  const groups = groupNames(file.groups);

  if (file.servicesEncrypted !== undefined && file.servicesEncrypted !== null) {
    const services = await decryptServices(file.servicesEncrypted, file.reference, options.password);
    return { format: '2fas-encrypted', ...readServices(services, groups) };
  }
  return { format: '2fas', ...readServices(file.services, groups) };
}

function groupNames(groups: unknown): Map<string, string> {
  const names = new Map<string, string>();
  for (const group of Array.isArray(groups) ? groups : []) {
    if (isRecord(group) && typeof group.id === 'string' && typeof group.name === 'string') {
      names.set(group.id, group.name);
    }
  }
  return names;
}

interface Sealed {
  sealed: Uint8Array;
  salt: Uint8Array;
  iv: Uint8Array;
}

/** `Base64(ciphertext ‖ tag):Base64(salt):Base64(iv)`, or undefined when it is not that. */
function sealedField(value: unknown): Sealed | undefined {
  if (typeof value !== 'string') return undefined;
  const parts = value.split(':');
  if (parts.length !== 3) return undefined;
  const [sealed, salt, iv] = parts.map(base64Bytes);
  if (!sealed || !salt || !iv) return undefined;
  if (sealed.length < tagLength || salt.length === 0 || salt.length > maxSaltLength || iv.length !== ivLength) {
    return undefined;
  }
  return { sealed, salt, iv };
}

async function decryptServices(encrypted: unknown, referenceField: unknown, password: string | undefined) {
  // The file's shape is checked before the password, so that a damaged file is not taken for a wrong password.
  const services = sealedField(encrypted);
  if (!services) throw new ImportFormatError('the encrypted 2FAS services are damaged');
  const reference = referenceField === undefined || referenceField === null ? undefined : sealedField(referenceField);
  if (referenceField != null && !reference) throw new ImportFormatError('the 2FAS password check is damaged');
  if (password === undefined || password === '') throw new ImportPasswordError('needed');

  // 2FAS may use one salt for both fields: derive each distinct key once (PBKDF2 is the slow part).
  const keys = new Map<string, Uint8Array>();
  const keyFor = async (salt: Uint8Array) => {
    const id = Array.from(salt, (byte) => byte.toString(16).padStart(2, '0')).join('');
    let key = keys.get(id);
    if (!key) {
      key = await pbkdf2Key(password, salt, iterations, 'SHA-256');
      keys.set(id, key);
    }
    return key;
  };

  if (reference && !(await aesGcmOpen(await keyFor(reference.salt), reference.iv, reference.sealed))) {
    throw new ImportPasswordError('wrong');
  }
  const plain = await aesGcmOpen(await keyFor(services.salt), services.iv, services.sealed);
  if (!plain) {
    // With a reference that opened, the password is right and the services themselves are damaged.
    if (reference) throw new ImportFormatError('the encrypted 2FAS services do not decrypt');
    throw new ImportPasswordError('wrong');
  }
  return parseJSON(new TextDecoder().decode(plain), 'the decrypted 2FAS services');
}

function readServices(services: unknown, groups: Map<string, string>): Pick<ImportResult, 'codes' | 'skipped'> {
  if (!Array.isArray(services)) throw new ImportFormatError('the 2FAS services are not a list');
  return splitOutcomes(services.map((service: unknown) => readService(service, groups)));
}

function readService(service: unknown, groups: Map<string, string>): EntryOutcome {
  if (!isRecord(service)) return { skipped: { issuer: '', account: '', reason: 'malformed' } };
  const otp = isRecord(service.otp) ? service.otp : undefined;
  const name = typeof service.name === 'string' ? service.name : '';
  if (!otp) {
    return { skipped: { issuer: oneLine(name), account: '', reason: 'malformed' } };
  }

  // The service name stands in for a missing issuer; the label (`issuer:account` or just the account)
  // for a missing account.
  const issuer = otp.issuer === undefined || otp.issuer === null || otp.issuer === '' ? name : otp.issuer;
  let account = otp.account;
  if ((account === undefined || account === null || account === '') && typeof otp.label === 'string') {
    const colon = otp.label.indexOf(':');
    account = colon < 0 ? otp.label : otp.label.slice(colon + 1);
  }
  const group = typeof service.groupId === 'string' ? groups.get(service.groupId) : undefined;

  return codeFromFields({
    // Early backups left the type out; every such code was TOTP.
    type: otp.tokenType ?? 'TOTP',
    issuer,
    account,
    secret: service.secret,
    algorithm: otp.algorithm,
    digits: otp.digits,
    period: otp.period,
    counter: otp.counter,
    tags: group === undefined ? [] : [group],
  });
}
