// What a pasted link or a QR code's text holds: one code (`otpauth://`) or a part of a Google
// Authenticator export (`otpauth-migration://`, formats: one export may span several QR codes, grouped
// by a batch id). Also the collection of an export's parts as the user adds its images one by one.
import { Failure } from '@ente/shared/failure.ts';

import { withoutHiddenLabels } from './code-edits.ts';
import { CodeParseError, parseCodeURI } from './code-uri.ts';
import type { MigrationPart } from './migration.ts';
import type { CodeData } from './types.ts';

export type { MigrationPart } from './migration.ts';

export type CodeText = { kind: 'code'; data: CodeData } | { kind: 'migration'; part: MigrationPart };

/** A text that is no code we can add; `errorKey` is a key of the `codes` namespace. */
export class CodeTextError extends Failure<`codes:${string}`> {
  constructor(
    readonly errorKey: string,
    /** Values the message interpolates. */
    values: Record<string, string> = {},
  ) {
    super(`codes:${errorKey}`, { values, message: errorKey });
    this.name = 'CodeTextError';
  }
}

/**
 * Reads a link or a QR code's text, its labels without characters that draw nothing (`withoutHiddenLabels`).
 * Throws `CodeTextError` with the reason when it holds no code.
 */
export async function readCodeText(text: string): Promise<CodeText> {
  const trimmed = text.trim();
  if (/^otpauth-migration:/i.test(trimmed)) {
    const { decodeMigrationURI } = await import('./migration.ts');
    try {
      const part = decodeMigrationURI(trimmed);
      return { kind: 'migration', part: { ...part, codes: part.codes.map(withoutHiddenLabels) } };
    } catch (e) {
      if (e instanceof CodeParseError) throw new CodeTextError(e.errorKey, e.values);
      throw new CodeTextError('editor.migration_invalid');
    }
  }
  try {
    return { kind: 'code', data: withoutHiddenLabels(parseCodeURI(trimmed)) };
  } catch (e) {
    if (e instanceof CodeParseError) throw new CodeTextError(e.errorKey, e.values);
    throw e;
  }
}

/** The parts of one export read so far. */
export interface MigrationCollection {
  id: number;
  size: number;
  /** By batch index; undefined where the image was not read yet. */
  parts: (MigrationPart | undefined)[];
}

export type CollectOutcome = 'added' | 'repeat' | 'other-export';

/**
 * Adds a part to the collection of its export (a new collection when there is none): 'repeat' when that
 * image was read already, 'other-export' when the part belongs to another export (the collection is
 * then unchanged).
 */
export function collectMigration(
  collection: MigrationCollection | undefined,
  part: MigrationPart,
): { collection: MigrationCollection; outcome: CollectOutcome } {
  const size = Math.max(1, part.batch.size);
  const current = collection ?? { id: part.batch.id, size, parts: Array.from({ length: size }, () => undefined) };
  if (current.id !== part.batch.id || current.size !== size) return { collection: current, outcome: 'other-export' };
  const index = part.batch.index;
  if (index < 0 || index >= size) return { collection: current, outcome: 'other-export' };
  if (current.parts[index]) return { collection: current, outcome: 'repeat' };
  const parts = [...current.parts];
  parts[index] = part;
  return { collection: { ...current, parts }, outcome: 'added' };
}

/** How many of the export's images were read. */
export function partsRead(collection: MigrationCollection): number {
  return collection.parts.filter((part) => part !== undefined).length;
}

/** Whether every image of the export was read. */
export function isComplete(collection: MigrationCollection): boolean {
  return partsRead(collection) === collection.size;
}
