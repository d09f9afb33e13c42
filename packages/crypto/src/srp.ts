// SRP-6a as Ente speaks it (docs/protocol.md#srp): the RFC 5054 4096-bit group, g = 5, SHA-256, identity = the
// srpUserID text, password = the 16 raw bytes of the login subkey, and the node-srp proof
// M1 = H(PAD(A) ‖ PAD(B) ‖ S), M2 = H(PAD(A) ‖ M1 ‖ K). fast-srp-hap builds exactly that when the
// client is constructed with hap = false and the server from a verifier (no identity or salt), so both
// roles go through it; this module only adapts encodings and adds the range checks of docs/protocol.md#srp-parameters.
import { Buffer } from 'buffer';

import { SRP, SrpClient, SrpServer } from 'fast-srp-hap';

import { bytesOf, fromB64, toB64, toHex, utf8Bytes, type BytesOrB64 } from './encoding.ts';
import { SrpError } from './errors.ts';
import { deriveLoginSubKeyB64 } from './kdf.ts';
import { randomBytes } from './keys.ts';

const params = SRP.params['4096'];
/** Length in bytes of N, and so of A, B and the verifier. */
export const SRP_N_BYTES = 512;
export const SRP_PROOF_BYTES = 32;
const N = BigInt('0x' + params.N.toString(16));

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

/** `v = g^x mod N`, padded to 512 bytes, b64. */
export function computeSrpVerifierB64({ srpUserID, srpSalt, loginSubKey }: SrpIdentity): string {
  const verifier = SRP.computeVerifier(params, buffer(srpSalt), Buffer.from(utf8Bytes(srpUserID)), buffer(loginSubKey));
  return toB64(verifier);
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
  /** Takes the server's B (b64) and returns M1 (b64); throws `SrpError` when B is outside 1..N-1. */
  computeM1B64(srpB: string): string;
  /** True when the server's M2 proves it knew the verifier. */
  verifyM2(srpM2: string): boolean;
}

/** `secretA` (32 random bytes by default) is the client's private exponent a. */
export async function createSrpClient(identity: SrpIdentity, secretA?: Uint8Array): Promise<SrpClientSession> {
  const a = secretA ?? (await randomBytes(32));
  const client = new SrpClient(
    params,
    buffer(identity.srpSalt),
    Buffer.from(utf8Bytes(identity.srpUserID)),
    buffer(identity.loginSubKey),
    Buffer.from(a),
    false,
  );
  const srpA = toB64(client.computeA());
  let m1Set = false;
  return {
    srpA,
    computeM1B64(srpB) {
      const bBytes = fromB64(srpB);
      if (!isValidSrpPublicValue(bBytes)) throw new SrpError('invalid server public value B');
      client.setB(Buffer.from(bBytes));
      m1Set = true;
      return toB64(client.computeM1());
    },
    verifyM2(srpM2) {
      if (!m1Set) return false;
      try {
        client.checkM2(buffer(srpM2));
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** The server's first step: a private exponent b and the public B for `verifier`. Both b64. */
export async function createSrpServerB64(verifier: BytesOrB64, secretB?: Uint8Array) {
  const b = secretB ?? (await randomBytes(32));
  const server = new SrpServer(params, buffer(verifier), Buffer.from(b));
  return { serverSecret: toB64(b), srpB: toB64(server.computeB()) };
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
  const server = new SrpServer(params, buffer(input.verifier), buffer(input.serverSecret));
  server.setA(Buffer.from(aBytes));
  try {
    server.checkM1(buffer(input.srpM1));
  } catch {
    return null;
  }
  return toB64(server.computeM2());
}

/** A and B must decode to exactly 512 bytes and lie in 1 ≤ x < N (docs/protocol.md#srp-parameters). */
export function isValidSrpPublicValue(bytes: Uint8Array): boolean {
  if (bytes.length !== SRP_N_BYTES) return false;
  const value = BigInt('0x' + toHex(bytes));
  return value >= 1n && value < N;
}

async function randomUuidV4(): Promise<string> {
  const bytes = await randomBytes(16);
  const [version = 0, variant = 0] = [bytes[6], bytes[8]];
  bytes[6] = (version & 0x0f) | 0x40;
  bytes[8] = (variant & 0x3f) | 0x80;
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function buffer(value: BytesOrB64): Buffer {
  return Buffer.from(bytesOf(value));
}
