// The cast screen's cryptography (docs/protocol.md#cast): a key pair made in the page whose secret key stays in
// this realm (the worker) under a handle, the sealed payload opened with it, and a file's bytes (a thumbnail's
// one Blob message, an original's Stream) opened with the file key. Nothing here is stored anywhere.
import { decryptBlobBytes } from './blob.ts';
import { bytesOf, utf8String } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import { generateKeyPairB64 } from './keys.ts';
import { openSealedBoxBytes } from './sealed-box.ts';
import { decryptStreamBytes } from './stream.ts';

export type CastKeyPair = { handle: string; publicKey: string };

export interface CastScreenCrypto {
  /** A fresh X25519 key pair: the public key (b64), and a handle for the secret key, which never leaves here. */
  castKeyPair(): Promise<CastKeyPair>;
  /**
   * The UTF-8 text of a payload sealed to the key pair of `handle`, or to the pair given (b64: a pair the page made
   * with WebCrypto's X25519, so that libsodium loads only once a payload comes); `DecryptionError` when it does
   * not open.
   */
  openCastPayload(pair: string | { publicKey: string; secretKey: string }, encCastData: string): Promise<string>;
  /** Forgets the key pair of `handle` (back to pairing). */
  dropCastKeyPair(handle: string): Promise<void>;
  /** A file's plaintext: `blob` for a thumbnail (one message), `stream` for an original (4 MiB chunks). */
  decryptFileBytes(encrypted: Uint8Array, header: string, key: string, layout: 'blob' | 'stream'): Promise<Uint8Array>;
}

/** The key pairs of this realm (the worker, or the Node process), by handle: module-wide, since the worker's
 * endpoint builds the API anew for each call. */
const pairs = new Map<string, { publicKey: string; secretKey: string }>();
let counter = 0;

export function createCastScreenCrypto(): CastScreenCrypto {
  return {
    async castKeyPair() {
      const pair = await generateKeyPairB64();
      counter += 1;
      const handle = `cast-${String(counter)}`;
      pairs.set(handle, pair);
      return { handle, publicKey: pair.publicKey };
    },
    async openCastPayload(handleOrPair, encCastData) {
      const pair = typeof handleOrPair === 'string' ? pairs.get(handleOrPair) : handleOrPair;
      if (!pair) throw new DecryptionError('unknown cast key pair');
      const bytes = await openSealedBoxBytes(encCastData, pair.publicKey, pair.secretKey);
      try {
        return utf8String(bytes);
      } catch {
        throw new DecryptionError('cast payload is not UTF-8 text');
      }
    },
    dropCastKeyPair(handle) {
      pairs.delete(handle);
      return Promise.resolve();
    },
    async decryptFileBytes(encrypted, header, key, layout) {
      const keyBytes = bytesOf(key);
      return layout === 'blob'
        ? decryptBlobBytes({ encryptedData: encrypted, header }, keyBytes)
        : decryptStreamBytes(encrypted, header, keyBytes);
    },
  };
}
