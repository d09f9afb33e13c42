// scrypt for Aegis password slots. WebCrypto has no scrypt, and @ente/crypto does not offer one yet, so
// this one module reaches @noble/hashes (the library @ente/crypto already depends on) directly: the only
// exception to the import layers in the importers, to move into @ente/crypto as is.
// eslint-disable-next-line layers/imports -- until @ente/crypto exports scrypt (see the status of this change)
import { scryptAsync } from '@noble/hashes/scrypt';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** A 32-byte key from `password` (bytes) and `salt`; async, so that the page stays responsive. */
export function scryptKey(password: Uint8Array, salt: Uint8Array, cost: ScryptCost): Promise<Uint8Array> {
  return scryptAsync(password, salt, { ...cost, dkLen: 32 });
}
