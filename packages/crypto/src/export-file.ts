// The envelope of Ente's encrypted export of authenticator codes (docs/formats.md, Ente encrypted export):
// Argon2id of the export password (parameters in the file) and one secretstream message of the plain
// export's text. Ente's apps end that message with TAG_MESSAGE or TAG_FINAL, so both open; ours write
// TAG_FINAL, like Ente's web app.
import { bytesOf, toB64, utf8Bytes } from './encoding.ts';
import { DecryptionError, InvalidEncodingError } from './errors.ts';
import { checkKdfParams, deriveKeyBytes, deriveSensitiveKeyB64, type Argon2RunObserver } from './kdf.ts';
import { sodiumReady } from './sodium.ts';

/** The JSON of an encrypted export; `encryptionNonce` is the secretstream header. */
export type EnteExportEnvelope = {
  version: 1;
  kdfParams: { memLimit: number; opsLimit: number; salt: string };
  encryptedData: string;
  encryptionNonce: string;
};

/** Argon2id cost of an export: the sensitive strategy unless given (tests use small ones). */
export type ExportKdfCost = { opsLimit: number; memLimit: number };

/** Encrypts the text of a plain export under `password`. */
export async function encryptEnteExport(
  password: string,
  text: string,
  cost?: ExportKdfCost,
  onRun?: Argon2RunObserver,
): Promise<EnteExportEnvelope> {
  const sodium = await sodiumReady();
  let key: Uint8Array;
  let kdfParams: EnteExportEnvelope['kdfParams'];
  if (cost) {
    const salt = toB64(sodium.randombytes_buf(sodium.crypto_pwhash_SALTBYTES));
    checkKdfParams({ salt, ...cost });
    key = await deriveKeyBytes(password, salt, cost.opsLimit, cost.memLimit);
    kdfParams = { memLimit: cost.memLimit, opsLimit: cost.opsLimit, salt };
  } else {
    const derived = await deriveSensitiveKeyB64(password, onRun);
    key = bytesOf(derived.key);
    kdfParams = { memLimit: derived.memLimit, opsLimit: derived.opsLimit, salt: derived.salt };
  }
  const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
  const encrypted = sodium.crypto_secretstream_xchacha20poly1305_push(
    state,
    utf8Bytes(text),
    null,
    sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL,
  );
  return { version: 1, kdfParams, encryptedData: toB64(encrypted), encryptionNonce: toB64(header) };
}

/**
 * The text of an encrypted export. `KdfParamsError` (before deriving) when its Argon2id parameters are
 * out of bounds, `InvalidEncodingError` when its data or nonce are not base64 or the nonce not a header, `DecryptionError` when the password does not open it or the content is not UTF-8 text.
 */
export async function decryptEnteExport(
  password: string,
  envelope: Pick<EnteExportEnvelope, 'kdfParams' | 'encryptedData' | 'encryptionNonce'>,
): Promise<string> {
  const { salt, opsLimit, memLimit } = envelope.kdfParams;
  checkKdfParams({ salt, opsLimit, memLimit });
  const sodium = await sodiumReady();
  const header = bytesOf(envelope.encryptionNonce);
  const ciphertext = bytesOf(envelope.encryptedData);
  if (header.length !== sodium.crypto_secretstream_xchacha20poly1305_HEADERBYTES) {
    throw new InvalidEncodingError('the nonce is not a secretstream header');
  }
  const key = await deriveKeyBytes(password, salt, opsLimit, memLimit);
  let result: { message: Uint8Array; tag: number } | false;
  try {
    const state = sodium.crypto_secretstream_xchacha20poly1305_init_pull(header, key);
    result = sodium.crypto_secretstream_xchacha20poly1305_pull(state, ciphertext, null);
  } catch {
    throw new DecryptionError('the export could not be opened');
  }
  const accepted = [
    sodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE,
    sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL,
  ];
  if (!result || !accepted.includes(result.tag)) throw new DecryptionError('the export could not be opened');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(result.message);
  } catch {
    throw new DecryptionError('the export is not text');
  }
}

/** A 32-byte Argon2id (v1.3, parallelism 1) key for another app's export, within `KDF_BOUNDS`. */
export async function argon2idKey(password: string, salt: string, opsLimit: number, memLimit: number): Promise<string> {
  checkKdfParams({ salt, opsLimit, memLimit });
  return toB64(await deriveKeyBytes(password, salt, opsLimit, memLimit));
}
