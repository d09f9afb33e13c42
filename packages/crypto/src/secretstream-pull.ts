// The receiving side of libsodium's crypto_secretstream_xchacha20poly1305 (docs/protocol.md#crypto-primitives) on
// @noble/ciphers' audited primitives instead of libsodium: what a page that only opens (a public album's visit, the
// media worker) needs, in a few KiB where libsodium is 187 KiB gzip. Checked against libsodium's own push in
// secretstream-pull.test.ts (every tag, rekeying, many sizes, tampering).
//
// The construction, as libsodium defines it: the header is 24 bytes; the state's key is HChaCha20(key, header[0..16])
// and its 12-byte ChaCha20-IETF nonce a 4-byte little-endian counter (starting at 1) then header[16..24]. A message
// is 1 encrypted tag byte, the ciphertext and a 16-byte Poly1305 MAC (17 bytes more than the plaintext). For each:
// block 0 of the keystream is the MAC's key; block 1 encrypts the tag byte (the rest of that block is MACed as it
// comes out, 64 bytes); blocks 2… the message. The MAC covers (no additional data) that 64-byte block, the
// ciphertext, then as many zero bytes as its length modulo 16 (libsodium's `(0x10 - 64 + mlen) & 0xf`, which is not
// padding to a multiple of 16 but what every secretstream carries), then both lengths as 64-bit little-endian (0 and 64 + length). After each message
// the nonce's last 8 bytes are XORed with the MAC's first 8 and the counter goes up; a REKEY tag (FINAL has its bit)
// or a counter that wrapped to 0 replaces key and those 8 bytes by their own encryption under the counter-0 block,
// and the counter starts at 1 again.
import { poly1305 } from '@noble/ciphers/_poly1305.js';
import { chacha20, hchacha } from '@noble/ciphers/chacha.js';
import { equalBytes, u32 } from '@noble/ciphers/utils.js';

import { DecryptionError } from './errors.ts';

export const SECRETSTREAM_HEADER_BYTES = 24;
export const SECRETSTREAM_KEY_BYTES = 32;
/** What a message grows by: the tag byte and the MAC. */
export const SECRETSTREAM_ABYTES = 17;
export const SECRETSTREAM_TAG_MESSAGE = 0;
export const SECRETSTREAM_TAG_PUSH = 1;
export const SECRETSTREAM_TAG_REKEY = 2;
export const SECRETSTREAM_TAG_FINAL = SECRETSTREAM_TAG_PUSH | SECRETSTREAM_TAG_REKEY;

/** One pulled message: its plaintext and the tag it was pushed with. */
export interface PulledMessage {
  message: Uint8Array<ArrayBuffer>;
  tag: number;
}

/** The state of one stream being opened: `pull` each message in the order they were pushed. */
export interface SecretstreamPuller {
  /** Opens the next message; throws `DecryptionError` (and keeps its state) when it does not authenticate. */
  pull(input: Uint8Array): PulledMessage;
}

/** ChaCha20's constant "expand 32-byte k", as the bytes HChaCha20 reads it from. */
const SIGMA = new TextEncoder().encode('expand 32-byte k');

/** HChaCha20(key, input16): 32 bytes. */
function hchacha20(key: Uint8Array, input: Uint8Array): Uint8Array {
  // noble's hchacha reads and writes words in the platform's order over byte copies (aligned, ours to wipe).
  const out = new Uint8Array(32);
  hchacha(u32(Uint8Array.from(SIGMA)), u32(Uint8Array.from(key)), u32(Uint8Array.from(input)), u32(out));
  return out;
}

/** 16 zero bytes: the padding of the MACed data. */
const PAD = new Uint8Array(16);

/** `value` as 8 little-endian bytes (below 2^53). */
function u64le(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setUint32(0, value >>> 0, true);
  new DataView(bytes.buffer).setUint32(4, Math.floor(value / 2 ** 32), true);
  return bytes;
}

/** crypto_secretstream_xchacha20poly1305_init_pull: throws `DecryptionError` for a header or key of a wrong length. */
export function secretstreamPuller(header: Uint8Array, key: Uint8Array): SecretstreamPuller {
  if (header.length !== SECRETSTREAM_HEADER_BYTES || key.length !== SECRETSTREAM_KEY_BYTES) {
    throw new DecryptionError('stream header or key could not be used');
  }
  let k = hchacha20(key, header.subarray(0, 16));
  /** The ChaCha20-IETF nonce: the counter (little-endian) then the 8 bytes that change with each message. */
  const nonce = new Uint8Array(12);
  const counter = new DataView(nonce.buffer, 0, 4);
  nonce.set(header.subarray(16, 24), 4);
  const resetCounter = () => counter.setUint32(0, 1, true);
  resetCounter();

  const rekey = () => {
    const keyAndNonce = new Uint8Array(40);
    keyAndNonce.set(k);
    keyAndNonce.set(nonce.subarray(4), 32);
    chacha20(k, nonce, keyAndNonce, keyAndNonce, 0);
    k = keyAndNonce.slice(0, 32);
    nonce.set(keyAndNonce.subarray(32), 4);
    keyAndNonce.fill(0);
    resetCounter();
  };

  return {
    pull(input) {
      if (input.length < SECRETSTREAM_ABYTES) throw new DecryptionError('stream message could not be opened');
      const length = input.length - SECRETSTREAM_ABYTES;
      const macKey = chacha20(k, nonce, new Uint8Array(32), undefined, 0);
      const block = new Uint8Array(64);
      block.set(input.subarray(0, 1));
      chacha20(k, nonce, block, block, 1);
      const tag = block.at(0) ?? 0;
      block.set(input.subarray(0, 1));
      const ciphertext = input.subarray(1, 1 + length);
      const mac = poly1305
        .create(macKey)
        .update(block)
        .update(ciphertext)
        .update(PAD.subarray(0, length % 16))
        .update(u64le(0))
        .update(u64le(64 + length))
        .digest();
      macKey.fill(0);
      if (!equalBytes(mac, input.subarray(1 + length))) throw new DecryptionError('stream message could not be opened');
      const message = chacha20(k, nonce, ciphertext, undefined, 2) as Uint8Array<ArrayBuffer>;
      nonce.set(
        nonce.subarray(4).map((byte, i) => byte ^ (mac.at(i) ?? 0)),
        4,
      );
      // The counter wraps at 2^32, which rekeys.
      counter.setUint32(0, (counter.getUint32(0, true) + 1) >>> 0, true);
      if ((tag & SECRETSTREAM_TAG_REKEY) !== 0 || counter.getUint32(0, true) === 0) rekey();
      return { message, tag };
    },
  };
}
