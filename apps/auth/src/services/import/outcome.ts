// What crosses the import worker's boundary: the result, or the error as plain data, since comlink would
// turn `ImportPasswordError` and the others into plain Errors without their fields.
import { ImportFormatError, ImportPasswordError, ImportSizeError, type ImportResult } from './types.ts';

export type ImportOutcome =
  | { ok: true; result: ImportResult }
  | {
      ok: false;
      error: { name: string; message: string; kind?: 'needed' | 'wrong'; detail?: string; limitBytes?: number };
    };

export async function outcomeOf(run: () => Promise<ImportResult>): Promise<ImportOutcome> {
  try {
    return { ok: true, result: await run() };
  } catch (error) {
    if (error instanceof ImportPasswordError)
      return { ok: false, error: { name: error.name, message: '', kind: error.kind } };
    if (error instanceof ImportFormatError)
      return { ok: false, error: { name: error.name, message: '', detail: error.detail } };
    if (error instanceof ImportSizeError) {
      return { ok: false, error: { name: error.name, message: '', limitBytes: error.limitBytes } };
    }
    // Anything else is a fault of ours; its message never holds a secret (parsers put none in errors).
    return { ok: false, error: { name: 'Error', message: error instanceof Error ? error.message : String(error) } };
  }
}

/** The result, or the error rebuilt as its class. */
export function resultOf(outcome: ImportOutcome): ImportResult {
  if (outcome.ok) return outcome.result;
  const { error } = outcome;
  if (error.kind) throw new ImportPasswordError(error.kind);
  if (error.detail !== undefined) throw new ImportFormatError(error.detail);
  if (error.limitBytes !== undefined) throw new ImportSizeError(error.limitBytes);
  throw new Error(error.message);
}
