// The crypto API as pages use it: `cryptoWorker()` resolves to one object per tab whose methods run in a
// Web Worker (worker.ts), created on the first call. Outside a browser (Node, jest) the same methods run
// in this realm, loaded by dynamic import. Either way every Argon2id run is recorded on this thread as a
// `performance.measure('ente:argon2id')` (boundary.ts). This module imports no libsodium, SRP or BIP-39
// code; only comlink, lazily.
import type { Endpoint } from 'comlink';

import { callEndpoint, remoteOverEndpoint, type CryptoEndpoint, type CryptoRemote } from './boundary.ts';
import { cryptoMethodNames } from './methods.ts';

export type { CryptoRemote } from './boundary.ts';
export { ARGON2_MEASURE } from './boundary.ts';

let remote: Promise<CryptoRemote> | undefined;
/** Terminates the Web Worker behind `remote` and fails its pending calls, when it runs in one. */
let endCurrentWorker: (() => void) | undefined;

/** The crypto API of this tab (a worker in browsers, in-process elsewhere). */
export function cryptoWorker(): Promise<CryptoRemote> {
  if (remote) return remote;
  const started = typeof Worker === 'undefined' || typeof window === 'undefined' ? inProcess() : inWorker();
  remote = started;
  // A failed start is retried on the next call.
  started.catch(() => {
    if (remote === started) remote = undefined;
  });
  return started;
}

/**
 * Ends this tab's crypto worker, with every key and SRP handle it holds in memory (the idle lock of the
 * auth app). Pending calls fail; the next `cryptoWorker()` starts a fresh one.
 */
export function resetCryptoWorker(): void {
  endCurrentWorker?.();
  endCurrentWorker = undefined;
  remote = undefined;
}

async function inProcess(): Promise<CryptoRemote> {
  const { createCryptoEndpoint } = await import('./endpoint.ts');
  const endpoint = createCryptoEndpoint({ serializeErrors: false });
  return remoteOverEndpoint((method, args) => callEndpoint(endpoint, method, args), cryptoMethodNames);
}

async function inWorker(): Promise<CryptoRemote> {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'ente-crypto' });
  // comlink never settles a call whose worker died; fail pending and later calls instead, and let the
  // next cryptoWorker() start a new worker.
  const failed = new Promise<never>((_, reject) => {
    endCurrentWorker = () => {
      reject(new Error('the crypto worker was ended'));
      worker.terminate();
    };
    const fail = () => {
      reject(new Error('the crypto worker failed'));
      remote = undefined;
      worker.terminate();
    };
    worker.addEventListener('error', fail);
    worker.addEventListener('messageerror', fail);
  });
  return remoteOverComlink(worker, failed);
}

/**
 * The crypto API over a comlink endpoint where worker.ts (or `expose(createCryptoEndpoint())`) answers:
 * a Worker, or a MessagePort in tests. Calls reject with `failed`'s error once it rejects.
 */
export async function remoteOverComlink(port: Endpoint, failed?: Promise<never>): Promise<CryptoRemote> {
  const { wrap } = await import('comlink');
  const endpoint = wrap<CryptoEndpoint>(port) as unknown as CryptoEndpoint;
  failed?.catch(() => undefined);
  return remoteOverEndpoint((method, args) => {
    const answer = callEndpoint(endpoint, method, args);
    return failed ? Promise.race([answer, failed]) : answer;
  }, cryptoMethodNames);
}
