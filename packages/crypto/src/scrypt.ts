// scrypt, for the password slots of other apps' encrypted exports (Aegis). WebCrypto has none; this is
// @noble/hashes', async so that it yields while it runs.
import { scryptAsync } from '@noble/hashes/scrypt';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** A 32-byte key from `password` (bytes) and `salt`. */
export function scryptKey(password: Uint8Array, salt: Uint8Array, cost: ScryptCost): Promise<Uint8Array> {
  return scryptAsync(password, salt, { ...cost, dkLen: 32 });
}
