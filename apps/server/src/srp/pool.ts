// The SRP worker threads (see work.ts). A small fixed pool with a bounded queue: a burst of logins
// waits its turn, and past the bound the answer is 429 rather than an ever longer queue.
import { Piscina } from 'piscina';

import { rateLimited } from '../http/errors.ts';
import type { ProofInput, ProofResult } from './work.ts';

export interface SrpPool {
  /** B for `verifier` and the private exponent `serverSecret` (32 bytes, b64). */
  createServer(verifier: string, serverSecret: string): Promise<{ srpB: string }>;
  verifyProof(input: ProofInput): Promise<ProofResult>;
  /** Tasks the threads finished (tests check that logins go through the pool). */
  readonly completed: number;
  close(): Promise<void>;
}

/**
 * The thread's entry, beside this module: in the built server (dist/main.js, this module bundled in) the
 * worker bundle dist/srp-worker.js, plain JavaScript; run from source through tsx, worker.mjs, which
 * registers tsx in the thread before loading work.ts.
 */
const workerEntry = import.meta.url.endsWith('.ts') ? './worker.mjs' : './srp-worker.js';

/** `maxQueued`: steps that may wait for a thread, past which the answer is 429 (each takes 1–3 ms of CPU). */
export function createSrpPool(threads: number, maxQueued = 64): SrpPool {
  // No thread until the first login (test servers start by the dozen); an idle thread stays 5 minutes.
  const pool = new Piscina({
    filename: new URL(workerEntry, import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 5 * 60_000,
  });
  const run = async <Result>(name: string, input: unknown): Promise<Result> => {
    if (pool.queueSize >= maxQueued) throw rateLimited();
    return (await pool.run(input, { name })) as Result;
  };
  return {
    createServer: (verifier, serverSecret) => run('createServer', { verifier, serverSecret }),
    verifyProof: (input) => run('verifyProof', input),
    get completed() {
      return pool.completed;
    },
    close: () => pool.destroy(),
  };
}
