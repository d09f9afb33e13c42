// What crosses the worker boundary, and the main-thread side of it. Imports no libsodium: client.ts
// uses it in the page bundle.
//
// Each call of the worker answers an envelope: the value or the error (as plain data, so that its
// name, message and `reason` survive structured cloning), and the Argon2id runs the call made, which
// the main thread records as one `performance.measure('ente:argon2id')` each (docs/protocol.md#password-kdf).
import type { CryptoAPI } from './api.ts';
import {
  cryptoErrorClasses,
  InsufficientMemoryError,
  KdfParamsError,
  RecoveryKeyError,
  type KdfParamsReason,
  type RecoveryKeyReason,
} from './errors.ts';
import type { Argon2Run } from './kdf.ts';

/** The name of every Argon2id performance measure. */
export const ARGON2_MEASURE = 'ente:argon2id';

/** An error as plain data. */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  reason?: string;
  word?: string;
  wordCount?: number;
}

export type Envelope<T> =
  { ok: true; value: T; argon2: Argon2Run[] } | { ok: false; error: SerializedError | Error; argon2: Argon2Run[] };

type Args<M extends keyof CryptoAPI> = Parameters<CryptoAPI[M]>;
type Result<M extends keyof CryptoAPI> = Awaited<ReturnType<CryptoAPI[M]>>;

/** What the worker exposes: each method of `CryptoAPI`, answering an envelope. */
export type CryptoEndpoint = {
  [M in keyof CryptoAPI]: (...args: Args<M>) => Promise<Envelope<Result<M>>>;
};

/** Calls `method` of an endpoint with loosely typed arguments (the typed surface is `CryptoRemote`). */
export function callEndpoint(endpoint: CryptoEndpoint, method: keyof CryptoAPI, args: unknown[]) {
  const run = endpoint[method] as unknown as (...args: unknown[]) => Promise<Envelope<unknown>>;
  return run(...args);
}

/** The main thread's view: the same methods as `CryptoAPI`, all async. */
export type CryptoRemote = CryptoAPI;

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const serialized: SerializedError = { name: error.name, message: error.message };
  if (error.stack !== undefined) serialized.stack = error.stack;
  const extra = error as { reason?: unknown; word?: unknown; wordCount?: unknown };
  if (typeof extra.reason === 'string') serialized.reason = extra.reason;
  if (typeof extra.word === 'string') serialized.word = extra.word;
  if (typeof extra.wordCount === 'number') serialized.wordCount = extra.wordCount;
  return serialized;
}

/** The error an envelope carries, as an instance of our class of that name when there is one. */
export function reviveError(error: SerializedError | Error): Error {
  if (error instanceof Error) return error;
  let revived: Error;
  switch (error.name) {
    case 'KdfParamsError':
      revived = new KdfParamsError(error.reason as KdfParamsReason, error.message);
      break;
    case 'RecoveryKeyError': {
      const details: { word?: string; wordCount?: number; message: string } = { message: error.message };
      if (error.word !== undefined) details.word = error.word;
      if (error.wordCount !== undefined) details.wordCount = error.wordCount;
      revived = new RecoveryKeyError(error.reason as RecoveryKeyReason, details);
      break;
    }
    case 'InsufficientMemoryError':
      revived = new InsufficientMemoryError();
      break;
    default: {
      const known = (cryptoErrorClasses as Record<string, (new (message: string) => Error) | undefined>)[error.name];
      revived = known ? new known(error.message) : Object.assign(new Error(error.message), { name: error.name });
      if (!known && error.reason !== undefined) Object.assign(revived, { reason: error.reason });
    }
  }
  if (error.stack !== undefined) revived.stack = error.stack;
  return revived;
}

/** One `performance.measure` per Argon2id run, on this thread's timeline. */
export function recordArgon2Runs(runs: readonly Argon2Run[], method: string) {
  if (typeof performance === 'undefined' || typeof performance.measure !== 'function') return;
  for (const run of runs) {
    try {
      performance.measure(ARGON2_MEASURE, {
        start: run.start - performance.timeOrigin,
        end: run.end - performance.timeOrigin,
        detail: { method, opsLimit: run.opsLimit, memLimit: run.memLimit, ok: run.ok },
      });
    } catch {
      // A timeline that refuses the entry (e.g. a test environment) only loses the measurement.
    }
  }
}

/** `CryptoAPI` over an endpoint: unwraps envelopes, records Argon2id runs, rethrows errors. */
export function remoteOverEndpoint(
  call: (method: keyof CryptoAPI, args: unknown[]) => Promise<Envelope<unknown>>,
  methods: readonly (keyof CryptoAPI)[],
): CryptoRemote {
  const remote: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of methods) {
    remote[method] = async (...args: unknown[]) => {
      const envelope = await call(method, args);
      recordArgon2Runs(envelope.argon2, method);
      if (envelope.ok) return envelope.value;
      throw reviveError(envelope.error);
    };
  }
  return remote as unknown as CryptoRemote;
}
