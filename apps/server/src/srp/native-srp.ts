// The server's side of SRP-6a as Ente speaks it (docs/protocol.md#srp): the formulas and byte encodings of
// packages/crypto/src/srp.ts (RFC 5054 4096-bit group, g = 5, SHA-256, k = H(PAD(N) ‖ PAD(g)),
// u = H(PAD(A) ‖ PAD(B)), S = (A·v^u)^b mod N, M1 = H(PAD(A) ‖ PAD(B) ‖ PAD(S)), M2 = H(PAD(A) ‖ M1 ‖ H(PAD(S)))),
// with the 4096-bit exponentiations done by OpenSSL through node:crypto: about 1 ms each, where BigInt
// takes 6–8 ms (docs/decisions.md#srp-on-the-server-native). Server-only: browsers have no node:crypto.
// The tests compare every value with fast-srp-hap and with @ente/crypto.
import {
  createDiffieHellman,
  createHash,
  getDiffieHellman,
  randomBytes,
  timingSafeEqual,
  type DiffieHellman,
} from 'node:crypto';

/** Length in bytes of N, and so of A, B, S and the verifier. */
const N_BYTES = 512;

/** RFC 5054's 4096-bit prime is RFC 3526's 4096-bit MODP group, which OpenSSL ships as modp16. */
const primeBytes = getDiffieHellman('modp16').getPrime();
const N = toBigInt(primeBytes);
/** N = 2q + 1 with q prime (a safe prime). */
const q = (N - 1n) / 2n;
const g = 5n;
const k = toBigInt(sha256(pad(N), pad(g)));
const b64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The group, for the tests. */
export const srpGroup = Object.freeze({ N, g, k });

/**
 * OpenSSL's Diffie-Hellman, used only for `computeSecret(base)` = base^private mod N, so its generator
 * plays no part. It is 2 because OpenSSL then knows the group (modp16) and skips DH_check's primality tests
 * of N and q, which take seconds for this prime with g = 5. One per thread, made at the first use.
 */
let openssl: DiffieHellman | undefined;

/**
 * Whether OpenSSL computes base^exponent mod N. DH_compute_key refuses a base (a peer's public key) outside
 * 2..N−2 and a result of 1 or N−1. N being a safe prime, every base in 2..N−2 has order q or 2q, so with
 * 0 < exponent < q the result is never 1 or N−1: within these bounds OpenSSL never refuses, and everything
 * outside them (only a degenerate verifier or a zero b get there) is computed on BigInt.
 */
export function computedByOpenSsl(reducedBase: bigint, exponent: bigint): boolean {
  return reducedBase >= 2n && reducedBase <= N - 2n && exponent > 0n && exponent < q;
}

/** base^exponent mod N (exponent big-endian, any length), as 512 bytes: OpenSSL, else BigInt. */
export function modPow(base: bigint, exponent: Uint8Array): Buffer {
  const reduced = mod(base);
  const power = toBigInt(exponent);
  if (!computedByOpenSsl(reduced, power)) return pad(bigIntModPow(reduced, power));
  openssl ??= createDiffieHellman(primeBytes, 2);
  openssl.setPrivateKey(exponent);
  const result = openssl.computeSecret(pad(reduced));
  // Node pads the secret to the prime's length; a shorter one would still be the same number.
  return result.length === N_BYTES ? result : pad(toBigInt(result));
}

/** The server's first step: a private exponent b (32 random bytes unless given) and B = (k·v + g^b) mod N. */
export function createServer(verifier: string, secretB: Uint8Array = randomBytes(32)) {
  const v = toBigInt(fromB64(verifier));
  return { serverSecret: toB64(secretB), srpB: toB64(serverPublicValue(v, secretB)) };
}

/** A must decode to exactly 512 bytes and lie in 1 ≤ A < N (docs/protocol.md#srp-parameters). */
function isValidPublicValue(bytes: Uint8Array): boolean {
  if (bytes.length !== N_BYTES) return false;
  const value = toBigInt(bytes);
  return value >= 1n && value < N;
}

export interface ProofInput {
  verifier: string;
  serverSecret: string;
  srpA: string;
  srpM1: string;
  /** B as createServer gave it; without it (a session stored before B was kept) it is computed again. */
  srpB?: string | null;
}

/** Errors don't keep their class across threads, so an invalid A comes back as a value. */
export type ProofResult = { srpM2: string | null } | { invalidA: string };

/** The server's second step: M2 (b64) when M1 is right, null when it is wrong; `invalidA` when A is not in 1..N-1. */
export function verifyProof(input: ProofInput): ProofResult {
  const aBytes = fromB64(input.srpA);
  if (!isValidPublicValue(aBytes)) return { invalidA: 'invalid client public value A' };
  const v = toBigInt(fromB64(input.verifier));
  const b = fromB64(input.serverSecret);
  const bBytes = input.srpB ? fromB64(input.srpB) : serverPublicValue(v, b);
  const u = sha256(aBytes, bBytes);
  const s = modPow(mod(toBigInt(aBytes) * toBigInt(modPow(v, u))), b);
  const m1 = sha256(aBytes, bBytes, s);
  const given = fromB64(input.srpM1);
  if (given.length !== m1.length || !timingSafeEqual(m1, given)) return { srpM2: null };
  return { srpM2: toB64(sha256(aBytes, m1, sha256(s))) };
}

function serverPublicValue(v: bigint, b: Uint8Array): Buffer {
  return pad(mod(k * v + toBigInt(modPow(g, b))));
}

function sha256(...parts: Uint8Array[]): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

function mod(value: bigint): bigint {
  const rest = value % N;
  return rest < 0n ? rest + N : rest;
}

/** The fallback for what OpenSSL refuses: left to right over the exponent's bits, as @ente/crypto does. */
function bigIntModPow(reducedBase: bigint, exponent: bigint): bigint {
  let result = 1n;
  for (const bit of exponent.toString(2)) {
    result = (result * result) % N;
    if (bit === '1') result = (result * reducedBase) % N;
  }
  return result;
}

function toBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0
    ? 0n
    : BigInt('0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex'));
}

/** Big-endian, left-padded with zeros to 512 bytes (value < N). */
function pad(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(2 * N_BYTES, '0'), 'hex');
}

/** Standard padded base64, as @ente/crypto's fromB64 takes it (the same pattern); anything else throws. */
function fromB64(value: string): Buffer {
  if (!b64Pattern.test(value)) throw new TypeError('invalid base64 encoding');
  return Buffer.from(value, 'base64');
}

function toB64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
}
