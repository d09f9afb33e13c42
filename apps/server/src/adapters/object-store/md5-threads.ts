// The MD5 of large bodies, counted on worker threads (file-transfer.ts): on the main thread it was most of
// an upload's CPU there (about 1.4 of its 2.4 CPU seconds per GiB under perf), so a 1 GiB upload could go no
// faster than one core hashes. The bytes are not copied to the worker: they are in the pooled buffers
// (SharedArrayBuffer memory), which the worker reads while the main thread writes them to disk. Each job
// stays on one worker, which takes its messages in order, so its updates are hashed in order.
import os from 'node:os';
import { Worker } from 'node:worker_threads';

/** The worker's whole program (CommonJS, evaluated: no file of its own to bundle). */
const workerSource = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', ({ job, memory, length, end }) => {
  let hash = hashes.get(job);
  if (!hash) hashes.set(job, (hash = createHash('md5')));
  if (memory) {
    hash.update(new Uint8Array(memory, 0, length));
    parentPort.postMessage(null);
  } else {
    hashes.delete(job);
    parentPort.postMessage(end === 'digest' ? hash.digest() : null);
  }
});
`;

const WORKERS = Math.max(1, Math.min(4, os.availableParallelism()));

interface HashThread {
  worker: Worker;
  /** Answers expected, in the order the messages were posted. */
  pending: { resolve: (value: unknown) => void; reject: (error: Error) => void }[];
  /** Why it stopped: it is replaced for new jobs, and the jobs it had fail. */
  failure?: Error;
}

const threads: (HashThread | undefined)[] = [];
let nextThread = 0;
let nextJob = 0;

function thread(index: number): HashThread {
  const existing = threads[index];
  if (existing) return existing;
  const worker = new Worker(workerSource, { eval: true });
  // Idle hash threads must not keep the process alive; a pending answer refs it again (below).
  worker.unref();
  const made: HashThread = { worker, pending: [] };
  worker.on('message', (value: unknown) => {
    made.pending.shift()?.resolve(value);
    if (made.pending.length === 0) worker.unref();
  });
  const fail = (error: Error) => {
    made.failure ??= error;
    if (threads[index] === made) threads[index] = undefined;
    for (const waiting of made.pending.splice(0)) waiting.reject(error);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the MD5 thread exited (${String(code)})`)));
  threads[index] = made;
  return made;
}

function ask(on: HashThread, message: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (on.failure) {
      reject(on.failure);
      return;
    }
    on.pending.push({ resolve, reject });
    on.worker.ref();
    on.worker.postMessage(message);
  });
}

/** One body's MD5 on a worker thread: updates from shared memory, then the digest (or a cancel). */
export interface Md5Job {
  /** Hashes the first `length` bytes of `memory`; resolves once the worker has read them. */
  update(memory: SharedArrayBuffer, length: number): Promise<void>;
  digest(): Promise<Buffer>;
  /** Forgets the job (a failed body). */
  cancel(): void;
}

export function startMd5Job(): Md5Job {
  const on = thread(nextThread);
  nextThread = (nextThread + 1) % WORKERS;
  const job = nextJob++;
  return {
    update: async (memory, length) => {
      await ask(on, { job, memory, length });
    },
    digest: async () => Buffer.from((await ask(on, { job, end: 'digest' })) as Uint8Array),
    cancel: () => {
      ask(on, { job, end: 'cancel' }).catch(() => undefined);
    },
  };
}
