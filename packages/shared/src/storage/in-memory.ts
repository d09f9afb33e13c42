// A registry of in-memory state that logout must forget (caches of decrypted data, stashed redirects,
// …). Modules that keep such state register a reset callback once; logout runs them all.
import { log } from '../log.ts';

const resets = new Map<string, () => void | Promise<void>>();

/** Registers (or replaces) the reset of one module's in-memory state; returns a function that unregisters it. */
export function registerInMemoryReset(name: string, reset: () => void | Promise<void>): () => void {
  resets.set(name, reset);
  return () => {
    if (resets.get(name) === reset) resets.delete(name);
  };
}

/** Runs every registered reset; one failing reset is logged and does not stop the others. */
export async function resetInMemoryState(): Promise<void> {
  for (const [name, reset] of resets) {
    try {
      await reset();
    } catch (e) {
      log.error(`Could not reset the in-memory state of ${name}`, e);
    }
  }
}
