// Box (docs/protocol.md#crypto-primitives): XSalsa20-Poly1305 secretbox with a fresh random 24-byte nonce. Used for every key
// wrapped under another key (key attributes, authenticator key, 2FA secret).
import { bytesOf, toB64, type BytesOrB64 } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import { sodiumReady } from './sodium.ts';

/** The JSON shape of a Box: both fields b64. */
export type BoxB64 = {
  encryptedData: string;
  nonce: string;
};

export async function encryptBoxB64(data: BytesOrB64, key: BytesOrB64): Promise<BoxB64> {
  const sodium = await sodiumReady();
  const nonce = sodium.randombytes_buf(sodium.crypto_secretbox_NONCEBYTES);
  return encryptBoxWithNonceB64(data, key, nonce);
}

/** Deterministic variant for test vectors; real callers use `encryptBoxB64`. */
export async function encryptBoxWithNonceB64(data: BytesOrB64, key: BytesOrB64, nonce: BytesOrB64): Promise<BoxB64> {
  const sodium = await sodiumReady();
  const nonceBytes = bytesOf(nonce);
  const encrypted = sodium.crypto_secretbox_easy(bytesOf(data), nonceBytes, bytesOf(key));
  return { encryptedData: toB64(encrypted), nonce: toB64(nonceBytes) };
}

/** Opens a Box; throws `DecryptionError` on a wrong key or tampered data. */
export async function decryptBoxBytes(box: BoxB64, key: BytesOrB64): Promise<Uint8Array> {
  const sodium = await sodiumReady();
  try {
    return sodium.crypto_secretbox_open_easy(bytesOf(box.encryptedData), bytesOf(box.nonce), bytesOf(key));
  } catch {
    throw new DecryptionError('box could not be opened');
  }
}

export async function decryptBoxB64(box: BoxB64, key: BytesOrB64): Promise<string> {
  return toB64(await decryptBoxBytes(box, key));
}
