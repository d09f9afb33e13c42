// Opening a Box (XSalsa20-Poly1305 secretbox, docs/protocol.md#crypto-primitives) without libsodium, on
// @noble/ciphers: open.ts's, in a module of its own so that code that opens only Boxes loads no secretstream code.
import { secretbox } from '@noble/ciphers/salsa.js';

import { bytesOf, type BytesOrB64 } from './encoding.ts';
import { DecryptionError } from './errors.ts';

const BOX_KEY_BYTES = 32;
const BOX_NONCE_BYTES = 24;
const BOX_MAC_BYTES = 16;

/** `work`, with any failure (a wrong length, malformed base64) as `DecryptionError`. */
export function opening<T>(what: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof DecryptionError) throw error;
    throw new DecryptionError(`${what} could not be opened`, { cause: error });
  }
}

/** Opens a Box (XSalsa20-Poly1305 secretbox: MAC then ciphertext); `DecryptionError` on a wrong key or tampered data. */
export function openBoxBytes(box: { encryptedData: BytesOrB64; nonce: BytesOrB64 }, key: BytesOrB64): Uint8Array {
  return opening('box', () => {
    const keyBytes = bytesOf(key);
    const nonce = bytesOf(box.nonce);
    const data = bytesOf(box.encryptedData);
    if (keyBytes.length !== BOX_KEY_BYTES || nonce.length !== BOX_NONCE_BYTES || data.length < BOX_MAC_BYTES) {
      throw new DecryptionError('box could not be opened');
    }
    return secretbox(keyBytes, nonce).open(data);
  });
}
