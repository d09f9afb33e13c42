// Base32 (RFC 4648, upper-case alphabet, no padding) for OTP secrets: the check that a typed or imported
// secret is usable, and the conversions Google's migration payload needs (it carries raw bytes).
// Lengths that leave spare bits (1, 3 or 6 characters past a multiple of 8) are accepted, decoding whole
// 5-bit groups as other authenticators do: hand-typed secrets of such lengths exist in real vaults.

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The secret of `text` in canonical form — spaces and padding removed, upper case — or undefined when it
 * is not Base32 or holds less than one byte.
 */
export function normalisedSecret(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '').replace(/=+$/, '');
  if (!/^[A-Za-z2-7]{2,}$/.test(compact)) return undefined;
  return compact.toUpperCase();
}

/** The bytes of a canonical Base32 string (see `normalisedSecret`); spare trailing bits are dropped. */
export function base32Decode(secret: string): Uint8Array {
  const bytes = new Uint8Array(Math.floor((secret.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of secret) {
    const digit = alphabet.indexOf(char);
    if (digit < 0) throw new Error('Not a Base32 secret');
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (value >>> bits) & 0xff;
    }
  }
  return bytes;
}

/** Base32 of `bytes`, upper case, without padding. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += alphabet.charAt((value >>> bits) & 31);
    }
  }
  if (bits > 0) out += alphabet.charAt((value << (5 - bits)) & 31);
  return out;
}
