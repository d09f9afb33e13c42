// Blob (docs/protocol.md#crypto-primitives): secretstream XChaCha20-Poly1305 with one TAG_FINAL message and no additional data.
// Authenticator entities use it under the authenticator key.
import { bytesOf, toB64, type BytesOrB64 } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import { sodiumReady } from './sodium.ts';

/** The JSON shape of a Blob: both fields b64; `header` is the 24-byte secretstream header. */
export type BlobB64 = {
  encryptedData: string;
  header: string;
};

export async function encryptBlobB64(data: BytesOrB64, key: BytesOrB64): Promise<BlobB64> {
  const sodium = await sodiumReady();
  const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(bytesOf(key));
  const encrypted = sodium.crypto_secretstream_xchacha20poly1305_push(
    state,
    bytesOf(data),
    null,
    sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL,
  );
  return { encryptedData: toB64(encrypted), header: toB64(header) };
}

/**
 * Opens a one-message Blob; throws `DecryptionError` unless it authenticates and ends with TAG_FINAL. Its fields may
 * also be bytes (a thumbnail read from the network or a cache), which spares encoding them to b64 and back.
 */
export async function decryptBlobBytes(
  blob: { encryptedData: BytesOrB64; header: BytesOrB64 },
  key: BytesOrB64,
): Promise<Uint8Array> {
  const sodium = await sodiumReady();
  let result: { message: Uint8Array; tag: number } | false;
  try {
    const state = sodium.crypto_secretstream_xchacha20poly1305_init_pull(bytesOf(blob.header), bytesOf(key));
    result = sodium.crypto_secretstream_xchacha20poly1305_pull(state, bytesOf(blob.encryptedData), null);
  } catch {
    throw new DecryptionError('blob could not be opened');
  }
  if (!result || result.tag !== sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL) {
    throw new DecryptionError('blob could not be opened');
  }
  return result.message;
}
