// Decoding and decryption steps the encrypted exports share (Aegis, andOTP): hex and Base64 fields, and
// AES-256-GCM through WebCrypto. Damaged encodings come back as undefined so each parser can say which
// field was wrong; an authentication failure is likewise undefined (a wrong key or a damaged file).

/** The bytes of a hex string of exactly `length` bytes (any case), or undefined. */
export function hexBytes(value: unknown, length: number): Uint8Array | undefined {
  if (typeof value !== 'string' || value.length !== length * 2 || !/^[0-9a-fA-F]*$/.test(value)) return undefined;
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = parseInt(value.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** The bytes of standard Base64 (padding and white space allowed), or undefined. */
export function base64Bytes(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string') return undefined;
  let binary: string;
  try {
    binary = atob(value.replace(/\s+/g, ''));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** UTF-8 of a password, as the apps that wrote these files encode it. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

/** A copy with its own ArrayBuffer, as WebCrypto's types want. */
function own(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

/**
 * AES-256-GCM decryption of `ciphertext ‖ tag` (16-byte tag), with `additionalData` when the format
 * authenticates some; undefined when authentication fails.
 */
export async function aesGcmOpen(
  key: Uint8Array,
  nonce: Uint8Array,
  sealed: Uint8Array,
  additionalData?: Uint8Array,
): Promise<Uint8Array | undefined> {
  const cryptoKey = await crypto.subtle.importKey('raw', own(key), { name: 'AES-GCM' }, false, ['decrypt']);
  const params: AesGcmParams = { name: 'AES-GCM', iv: own(nonce) };
  if (additionalData) params.additionalData = own(additionalData);
  try {
    const plain = await crypto.subtle.decrypt(params, cryptoKey, own(sealed));
    return new Uint8Array(plain);
  } catch {
    return undefined;
  }
}

/** PBKDF2 of a password into a 32-byte key. */
export async function pbkdf2Key(
  password: string,
  salt: Uint8Array,
  iterations: number,
  hash: 'SHA-1' | 'SHA-256',
): Promise<Uint8Array> {
  const base = await crypto.subtle.importKey('raw', utf8(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash, salt: own(salt), iterations }, base, 256);
  return new Uint8Array(bits);
}

/** `a ‖ b`. */
export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
