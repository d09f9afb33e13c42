// Encodings of the wire (protocol "Conventions"): b64 (standard, padded), b64url (URL-safe, padded),
// b64url-nopad, and UTF-8. Pure JS and synchronous, so they work before libsodium is ready. Decoders
// are strict: a malformed string throws instead of silently producing different bytes.

import { InvalidEncodingError } from './errors.ts';

/** Either raw bytes or a b64 string, which is always base64-decoded (docs/protocol.md#crypto-primitives). */
export type BytesOrB64 = Uint8Array | string;

// Padded (url-safe) base64 is the alphabet then at most two `=`, in whole groups of four: the same strings as
// `(XXXX)*(XX==|XXX=)?`, but V8 runs that repeated group at about 20 ms per MB, which a reload paid on the
// vault's snapshot (apps/auth/src/vault/cache.ts), and this check at under 1 ms.
const b64Chars = /^[A-Za-z0-9+/]*={0,2}$/;
const b64urlChars = /^[A-Za-z0-9_-]*={0,2}$/;
const b64Pattern = { test: (value: string) => value.length % 4 === 0 && b64Chars.test(value) };
const b64urlPattern = { test: (value: string) => value.length % 4 === 0 && b64urlChars.test(value) };
const b64urlNoPadPattern = /^[A-Za-z0-9_-]*$/;

const nativeFromBase64 = (Uint8Array as { fromBase64?: (text: string) => Uint8Array }).fromBase64?.bind(Uint8Array);

/** Standard base64 with padding. */
export function toB64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/** Decodes standard padded base64; throws `InvalidEncodingError` on anything else. */
export function fromB64(b64: string): Uint8Array {
  if (!b64Pattern.test(b64)) throw new InvalidEncodingError('invalid base64 encoding');
  // Native where the engine has it (Chromium 140+): a JS loop over a large Blob's characters cost more
  // than its decryption. Given the check above, both accept the same strings and give the same bytes.
  if (nativeFromBase64) return nativeFromBase64(b64);
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** True when `value` is canonical padded standard base64. */
export function isB64(value: string): boolean {
  return b64Pattern.test(value);
}

/** URL-safe base64 with padding (libsodium URLSAFE, Go base64.URLEncoding). */
export function toB64Url(bytes: Uint8Array): string {
  return toB64(bytes).replace(/\+/g, '-').replace(/\//g, '_');
}

export function fromB64Url(b64url: string): Uint8Array {
  if (!b64urlPattern.test(b64url)) throw new InvalidEncodingError('invalid base64url encoding');
  return fromB64(b64url.replace(/-/g, '+').replace(/_/g, '/'));
}

/** URL-safe base64 without padding. */
export function toB64UrlNoPad(bytes: Uint8Array): string {
  return toB64Url(bytes).replace(/=+$/, '');
}

export function fromB64UrlNoPad(value: string): Uint8Array {
  if (!b64urlNoPadPattern.test(value) || value.length % 4 === 1) {
    throw new InvalidEncodingError('invalid unpadded base64url encoding');
  }
  return fromB64Url(value + '='.repeat((4 - (value.length % 4)) % 4));
}

/** Bytes as given, or the bytes of a b64 string. */
export function bytesOf(value: BytesOrB64): Uint8Array {
  return typeof value === 'string' ? fromB64(value) : value;
}

export function utf8Bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function utf8String(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function fromHex(hex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new InvalidEncodingError('invalid hex encoding');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}
