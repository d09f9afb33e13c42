// TOTP for the account's second factor (docs/protocol.md#two-factor): RFC 6238 with HMAC-SHA1, 6 digits,
// 30-second steps, accepting one step either side; and the base32 (RFC 4648, no padding) of the secret.
import { createHmac, randomInt } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const STEP_SECONDS = 30;

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += alphabet.charAt((value >>> (bits - 5)) & 31);
      bits -= 5;
    }
  }
  if (bits > 0) output += alphabet.charAt((value << (5 - bits)) & 31);
  return output;
}

export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '').toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error('invalid base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Uint8Array.from(bytes);
}

/** The 6-digit code of `secret` (raw bytes) for the step containing `unixSeconds`. */
export function totpAt(secret: Uint8Array, unixSeconds: number, digits = 6): string {
  const counter = Math.floor(unixSeconds / STEP_SECONDS);
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac.readUInt8(mac.length - 1) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** True when `code` is the code of the current step or of one step before or after. */
export function isValidTotp(secret: Uint8Array, code: string, unixSeconds: number): boolean {
  let match = false;
  for (const drift of [-1, 0, 1]) {
    // No early exit: the time taken does not depend on which step matched.
    if (totpAt(secret, unixSeconds + drift * STEP_SECONDS) === code) match = true;
  }
  return match;
}

/** A 6-digit e-mail code from a CSPRNG, zero-padded. */
export function randomSixDigits(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}
