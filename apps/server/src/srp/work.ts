// The SRP server's modular arithmetic (4096-bit exponentiations, 10–50 ms of CPU per step), run in the
// worker threads of pool.ts so that a login never stalls the event loop serving every other request.
// Errors don't keep their class across threads, so an invalid A comes back as a value.
import { createSrpServerB64, SrpError, verifySrpClientProofB64 } from '@ente/crypto';

export interface ProofInput {
  verifier: string;
  serverSecret: string;
  srpA: string;
  srpM1: string;
}

export type ProofResult = { srpM2: string | null } | { invalidA: string };

/** A private exponent b and the public B for `verifier` (both b64). */
export function createServer(verifier: string): Promise<{ serverSecret: string; srpB: string }> {
  return createSrpServerB64(verifier);
}

/** M2 when M1 is right, null when it is wrong; `invalidA` when A is outside 1..N-1. */
export function verifyProof(input: ProofInput): ProofResult {
  try {
    return { srpM2: verifySrpClientProofB64(input) };
  } catch (error) {
    if (error instanceof SrpError) return { invalidA: error.message };
    throw error;
  }
}
