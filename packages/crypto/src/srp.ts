// SRP-6a as Ente speaks it (docs/protocol.md#srp): the RFC 5054 4096-bit group, g = 5, SHA-256, identity = the
// srpUserID text, password = the 16 raw bytes of the login subkey, and the node-srp proof
// M1 = H(PAD(A) ‖ PAD(B) ‖ PAD(S)), M2 = H(PAD(A) ‖ M1 ‖ K). Both roles live here, on the engine's native
// BigInt: a 4096-bit exponentiation takes milliseconds where fast-srp-hap's bn.js took 0.1–0.4 s
// (docs/decisions.md#srp-on-native-bigint). The tests check every value against fast-srp-hap.
import { sha256 } from '@noble/hashes/sha2';

import { bytesOf, fromHex, toB64, toHex, utf8Bytes, type BytesOrB64 } from './encoding.ts';
import { SrpError } from './errors.ts';
import { deriveLoginSubKeyB64 } from './kdf.ts';
import { randomBytes } from './keys.ts';

/** Length in bytes of N, and so of A, B, S and the verifier. */
export const SRP_N_BYTES = 512;
export const SRP_PROOF_BYTES = 32;

/** The 4096-bit prime of RFC 5054 (the same as RFC 3526's 4096-bit MODP group). */
const N = BigInt(
  '0x' +
    'ffffffffffffffffc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f1437' +
    '4fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf05' +
    '98da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca18217c32905e462e36ce3b' +
    'e39e772c180e86039b2783a2ec07a28fb5c55df06f4c52c9de2bcbf6955817183995497cea956ae515d2261898fa051015728e5a8aaac42dad33170d04507a33' +
    'a85521abdf1cba64ecfb850458dbef0a8aea71575d060c7db3970f85a6e1e4c7abf5ae8cdb0933d71e8c94e04a25619dcee3d2261ad2ee6bf12ffa06d98a0864' +
    'd87602733ec86a64521f2b18177b200cbbe117577a615d6c770988c0bad946e208e24fa074e5ab3143db5bfce0fd108e4b82d120a92108011a723c12a787e6d7' +
    '88719a10bdba5b2699c327186af4e23c1a946834b6150bda2583e9ca2ad44ce8dbbbc2db04de8ef92e8efc141fbecaa6287c59474e6bc05d99b2964fa090c3a2' +
    '233ba186515be7ed1f612970cee2d7afb81bdd762170481cd0069127d5b05aa993b4ea988d8fddc186ffb7dc90a6c08f4df435c934063199ffffffffffffffff',
);
const g = 5n;
/** k = H(PAD(N) ‖ PAD(g)), computed on first use. */
let multiplier: bigint | undefined;

/** What a client needs to register (docs/protocol.md#srp-setup) plus the subkey it came from. */
export type SrpSetupAttributes = {
  srpUserID: string;
  srpSalt: string; // b64, 16 bytes
  srpVerifier: string; // b64, 512 bytes
  loginSubKey: string; // b64, 16 bytes
};

export interface SrpIdentity {
  srpUserID: string;
  srpSalt: BytesOrB64;
  loginSubKey: BytesOrB64;
}

/** An identity whose login subkey may come later, with the server's B (A does not depend on it). */
export type SrpUser = Omit<SrpIdentity, 'loginSubKey'> & { loginSubKey?: BytesOrB64 };

/** `v = g^x mod N`, padded to 512 bytes, b64. */
export function computeSrpVerifierB64(identity: SrpIdentity): string {
  return toB64(pad(modPow(g, privateKeyX(identity))));
}

/** A fresh srpUserID (UUID v4) and salt, and the verifier for the login subkey of `kek`. */
export async function generateSrpSetupAttributes(kek: BytesOrB64): Promise<SrpSetupAttributes> {
  const loginSubKey = await deriveLoginSubKeyB64(kek);
  const srpUserID = await randomUuidV4();
  const srpSalt = toB64(await randomBytes(16));
  return { srpUserID, srpSalt, loginSubKey, srpVerifier: computeSrpVerifierB64({ srpUserID, srpSalt, loginSubKey }) };
}

/** The client side of one SRP exchange. */
export interface SrpClientSession {
  /** A, b64 of 512 bytes. */
  readonly srpA: string;
  /**
   * Takes the server's B (b64) and returns M1 (b64); throws `SrpError` when B is outside 1..N-1, or
   * when the login subkey was given neither here nor at the start.
   */
  computeM1B64(srpB: string, loginSubKey?: BytesOrB64): string;
  /** True when the server's M2 proves it knew the verifier. */
  verifyM2(srpM2: string): boolean;
}

/**
 * `secretA` (32 random bytes by default) is the client's private exponent a. The login subkey can wait
 * until `computeM1B64`, so that A goes to the server while the KEK is still being derived.
 */
export async function createSrpClient(user: SrpUser, secretA?: Uint8Array): Promise<SrpClientSession> {
  const a = toBigInt(secretA ?? (await randomBytes(32)));
  const aBytes = pad(modPow(g, a));
  let expectedM2: Uint8Array | undefined;
  return {
    srpA: toB64(aBytes),
    computeM1B64(srpB, loginSubKey = user.loginSubKey) {
      const bBytes = bytesOf(srpB);
      if (!isValidSrpPublicValue(bBytes)) throw new SrpError('invalid server public value B');
      if (loginSubKey === undefined) throw new SrpError('no login subkey for the SRP proof');
      const x = privateKeyX({ ...user, loginSubKey });
      const u = toBigInt(sha256(concat(aBytes, bBytes)));
      const base = mod(toBigInt(bBytes) - k() * modPow(g, x));
      const s = pad(modPow(base, a + u * x));
      const m1 = sha256(concat(aBytes, bBytes, s));
      expectedM2 = sha256(concat(aBytes, m1, sha256(s)));
      return toB64(m1);
    },
    verifyM2(srpM2) {
      return expectedM2 !== undefined && equalBytes(expectedM2, bytesOf(srpM2));
    },
  };
}

/** The server's first step: a private exponent b and the public B for `verifier`. Both b64. */
export async function createSrpServerB64(verifier: BytesOrB64, secretB?: Uint8Array) {
  const b = secretB ?? (await randomBytes(32));
  return { serverSecret: toB64(b), srpB: toB64(serverPublicValue(toBigInt(bytesOf(verifier)), toBigInt(b))) };
}

/**
 * The server's second step, from its stored state: checks the client's M1 and returns M2 (b64), or
 * null when M1 is wrong. Throws `SrpError` when A is not in 1..N-1 (callers answer 400).
 */
export function verifySrpClientProofB64(input: {
  verifier: BytesOrB64;
  serverSecret: BytesOrB64;
  srpA: BytesOrB64;
  srpM1: BytesOrB64;
}): string | null {
  const aBytes = bytesOf(input.srpA);
  if (!isValidSrpPublicValue(aBytes)) throw new SrpError('invalid client public value A');
  const v = toBigInt(bytesOf(input.verifier));
  const b = toBigInt(bytesOf(input.serverSecret));
  const bBytes = serverPublicValue(v, b);
  const u = toBigInt(sha256(concat(aBytes, bBytes)));
  const s = pad(modPow(mod(toBigInt(aBytes) * modPow(v, u)), b));
  const m1 = sha256(concat(aBytes, bBytes, s));
  if (!equalBytes(m1, bytesOf(input.srpM1))) return null;
  return toB64(sha256(concat(aBytes, m1, sha256(s))));
}

/** A and B must decode to exactly 512 bytes and lie in 1 ≤ x < N (docs/protocol.md#srp-parameters). */
export function isValidSrpPublicValue(bytes: Uint8Array): boolean {
  if (bytes.length !== SRP_N_BYTES) return false;
  const value = toBigInt(bytes);
  return value >= 1n && value < N;
}

/** B = PAD((k·v + g^b) mod N). */
function serverPublicValue(v: bigint, b: bigint): Uint8Array {
  return pad(mod(k() * v + modPow(g, b)));
}

/** x = H(salt ‖ H(I ‖ ":" ‖ P)), read big-endian. */
function privateKeyX({ srpUserID, srpSalt, loginSubKey }: SrpIdentity): bigint {
  const inner = sha256(concat(utf8Bytes(`${srpUserID}:`), bytesOf(loginSubKey)));
  return toBigInt(sha256(concat(bytesOf(srpSalt), inner)));
}

function k(): bigint {
  multiplier ??= toBigInt(sha256(concat(pad(N), pad(g))));
  return multiplier;
}

function mod(value: bigint): bigint {
  const rest = value % N;
  return rest < 0n ? rest + N : rest;
}

/** base^exponent mod N, left to right over the exponent's bits. */
function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  const reduced = mod(base);
  for (const bit of exponent.toString(2)) {
    result = (result * result) % N;
    if (bit === '1') result = (result * reduced) % N;
  }
  return result;
}

function toBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt('0x' + toHex(bytes));
}

/** Big-endian, left-padded with zeros to 512 bytes. */
function pad(value: bigint): Uint8Array {
  return fromHex(value.toString(16).padStart(2 * SRP_N_BYTES, '0'));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

/** Compares without stopping at the first difference. */
function equalBytes(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let i = 0; i < left.length; i++) difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return difference === 0;
}

async function randomUuidV4(): Promise<string> {
  const bytes = await randomBytes(16);
  const [version = 0, variant = 0] = [bytes[6], bytes[8]];
  bytes[6] = (version & 0x0f) | 0x40;
  bytes[8] = (variant & 0x3f) | 0x80;
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
