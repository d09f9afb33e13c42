// The SRP server's steps, run in the worker threads of pool.ts so that a login never stalls the event loop
// serving every other request. The arithmetic is native-srp.ts: three 4096-bit exponentiations per login in
// OpenSSL, about 1 ms each. Errors don't keep their class across threads, so an invalid A comes back as a value.
import { createServer as createSrpServer, verifyProof } from './native-srp.ts';

export type { ProofInput, ProofResult } from './native-srp.ts';
export { verifyProof };

/** The public B for `verifier` and the private exponent b (`serverSecret`, 32 bytes; both b64). */
export function createServer(input: { verifier: string; serverSecret: string }): { srpB: string } {
  return { srpB: createSrpServer(input.verifier, Buffer.from(input.serverSecret, 'base64')).srpB };
}
