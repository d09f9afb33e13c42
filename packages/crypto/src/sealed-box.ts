// Sealed box (docs/protocol.md#crypto-primitives, #auth-tokens): anonymous encryption to an X25519 public key. The server seals auth
// tokens to the user's public key; the client opens them with its keypair.
import { bytesOf, toB64, type BytesOrB64 } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import { sodiumReady } from './sodium.ts';

export async function sealBoxB64(data: BytesOrB64, publicKey: BytesOrB64): Promise<string> {
  const sodium = await sodiumReady();
  return toB64(sodium.crypto_box_seal(bytesOf(data), bytesOf(publicKey)));
}

export async function openSealedBoxBytes(
  ciphertext: BytesOrB64,
  publicKey: BytesOrB64,
  secretKey: BytesOrB64,
): Promise<Uint8Array> {
  const sodium = await sodiumReady();
  try {
    return sodium.crypto_box_seal_open(bytesOf(ciphertext), bytesOf(publicKey), bytesOf(secretKey));
  } catch {
    throw new DecryptionError('sealed box could not be opened');
  }
}
