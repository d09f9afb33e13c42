// Ente's encrypted export: a JSON envelope (version 1, the Argon2id parameters, the secretstream header
// and ciphertext) around the text of the plain export. The parameters are read from the file and checked
// against the KDF bounds before deriving; both end tags Ente's apps write are accepted (export-file.ts in
// @ente/crypto). Opening runs in the crypto worker; what it holds is then read as the plain export.
import { contentText, isRecord, parseJSON } from './otp-entry.ts';
import { parseOtpauthList } from './otpauth-list.ts';
import {
  importCrypto,
  ImportFormatError,
  ImportPasswordError,
  type ImportOptions,
  type ImportResult,
} from './types.ts';

/** Whether the content looks like an Ente encrypted export: a JSON object with its three fields. */
export function looksLikeEnteEncrypted(content: string | Uint8Array): boolean {
  const head =
    typeof content === 'string' ? content.slice(0, 4096) : new TextDecoder().decode(content.subarray(0, 4096));
  return (
    /^\uFEFF?\s*\{/.test(head) &&
    /"kdfParams"\s*:/.test(head) &&
    /"encryptionNonce"\s*:/.test(head) &&
    /"encryptedData"\s*:/.test(head)
  );
}

export async function parseEnteEncrypted(
  content: string | Uint8Array,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const file = parseJSON(contentText(content), 'the Ente export');
  const envelope = envelopeOf(file);
  if (options.password === undefined || options.password === '') throw new ImportPasswordError('needed');
  const crypto = await importCrypto(options);
  let text: string;
  try {
    text = await crypto.decryptEnteExport(options.password, envelope);
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'DecryptionError') throw new ImportPasswordError('wrong');
    if (name === 'KdfParamsError' || name === 'InvalidEncodingError') {
      throw new ImportFormatError('the export has key derivation parameters or data that cannot be right');
    }
    throw error;
  }
  if (text.trim() === '') return { format: 'ente-encrypted', codes: [], skipped: [] };
  let inner: ImportResult;
  try {
    inner = await parseOtpauthList(text);
  } catch (error) {
    if (error instanceof ImportFormatError) throw new ImportFormatError('the export opened but holds no codes');
    throw error;
  }
  return { ...inner, format: 'ente-encrypted' };
}

function envelopeOf(file: unknown) {
  if (!isRecord(file)) throw new ImportFormatError('not an Ente export');
  const { version, kdfParams, encryptedData, encryptionNonce } = file;
  if (version !== 1) throw new ImportFormatError('the Ente export has a version this app does not know');
  if (
    !isRecord(kdfParams) ||
    typeof kdfParams.memLimit !== 'number' ||
    typeof kdfParams.opsLimit !== 'number' ||
    typeof kdfParams.salt !== 'string' ||
    typeof encryptedData !== 'string' ||
    typeof encryptionNonce !== 'string'
  ) {
    throw new ImportFormatError('the Ente export lacks its key derivation parameters or data');
  }
  return {
    kdfParams: { memLimit: kdfParams.memLimit, opsLimit: kdfParams.opsLimit, salt: kdfParams.salt },
    encryptedData,
    encryptionNonce,
  };
}
