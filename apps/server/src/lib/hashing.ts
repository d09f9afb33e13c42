// Hashes the server keeps instead of secrets: SHA-256 of tokens and session IDs, HMAC for 2FA
// recovery secrets, and a constant-time comparison.
import { createHmac, hash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of the UTF-8 text, as padded base64url (the same shape as a token). */
export function sha256B64Url(text: string): string {
  // The one-shot hash() costs a fraction of createHash()'s object set-up (it runs on every request).
  return hash('sha256', text, 'base64url') + '=';
}

export function hmacSha256B64(key: Uint8Array, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('base64');
}

export function equalStrings(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
