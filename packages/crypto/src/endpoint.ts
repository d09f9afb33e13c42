// The worker side of the boundary (see boundary.ts): each method of the direct implementation,
// answering an envelope with the value or the error and the Argon2id runs the call made.
import { createCryptoAPI } from './api.ts';
import { serializeError, type CryptoEndpoint, type Envelope } from './boundary.ts';
import type { Argon2Run } from './kdf.ts';
import { cryptoMethodNames, type CryptoMethodName } from './methods.ts';

/**
 * `serializeErrors` turns errors into plain data (across a worker); without it the envelope keeps the
 * thrown object (same realm).
 */
export function createCryptoEndpoint({ serializeErrors = true }: { serializeErrors?: boolean } = {}): CryptoEndpoint {
  const endpoint: Record<string, (...args: unknown[]) => Promise<Envelope<unknown>>> = {};
  for (const method of cryptoMethodNames) {
    endpoint[method] = async (...args: unknown[]) => {
      const argon2: Argon2Run[] = [];
      const api = createCryptoAPI((run) => argon2.push(run)) as unknown as Record<
        CryptoMethodName,
        (...args: unknown[]) => Promise<unknown>
      >;
      try {
        return { ok: true, value: await api[method](...args), argon2 };
      } catch (error) {
        const carried = serializeErrors || !(error instanceof Error) ? serializeError(error) : error;
        return { ok: false, error: carried, argon2 };
      }
    };
  }
  return endpoint as unknown as CryptoEndpoint;
}
