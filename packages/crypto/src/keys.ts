// Random keys, salts and X25519 keypairs (docs/protocol.md#crypto-primitives).
import { toB64 } from './encoding.ts';
import { sodiumReady } from './sodium.ts';

export async function randomBytes(length: number): Promise<Uint8Array> {
  return (await sodiumReady()).randombytes_buf(length);
}

/** 32 random bytes: a secretbox or secretstream key. */
export async function generateKeyBytes(): Promise<Uint8Array> {
  return randomBytes(32);
}

export async function generateKeyB64(): Promise<string> {
  return toB64(await generateKeyBytes());
}

export type KeyPairB64 = {
  publicKey: string;
  secretKey: string;
};

export async function generateKeyPairB64(): Promise<KeyPairB64> {
  const { publicKey, privateKey } = (await sodiumReady()).crypto_box_keypair();
  return { publicKey: toB64(publicKey), secretKey: toB64(privateKey) };
}

/** Deterministic keypair from a 32-byte seed (test vectors). */
export async function keyPairFromSeedB64(seed: Uint8Array): Promise<KeyPairB64> {
  const { publicKey, privateKey } = (await sodiumReady()).crypto_box_seed_keypair(seed);
  return { publicKey: toB64(publicKey), secretKey: toB64(privateKey) };
}
