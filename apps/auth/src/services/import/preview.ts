// What an import will do, shown before anything is written: the codes it adds, the ones that duplicate a
// code of the vault or an earlier entry of the same file (a code giving the same values: `codeIdentity`,
// the rule `duplicateOf` applies to the vault), left out unless chosen, and the entries the file holds that cannot be imported, with reasons.
import { withoutHiddenLabels } from '../code-edits.ts';
import { codeIdentity, duplicateOf } from '../find.ts';
import type { Code, CodeData } from '../types.ts';
import type { ImportFormat, ImportResult, SkippedEntry } from './types.ts';

export interface PreviewEntry {
  /** Stable within the preview (its index in the file's codes). */
  key: string;
  data: CodeData;
}

export interface DuplicateEntry extends PreviewEntry {
  /** The vault's code it duplicates, or 'file' for a repeat of an earlier entry of the file. */
  of: Code | 'file';
}

export interface ImportPreview {
  format: ImportFormat;
  fresh: PreviewEntry[];
  duplicates: DuplicateEntry[];
  skipped: SkippedEntry[];
  /** How many of the fresh codes go to the trash (Ente exports carry trashed codes). */
  trashed: number;
}

export function previewImport(result: ImportResult, vaultCodes: readonly Code[]): ImportPreview {
  const fresh: PreviewEntry[] = [];
  const duplicates: DuplicateEntry[] = [];
  const seen = new Set<string>();
  result.codes.forEach((read, index) => {
    // What is shown and written: labels without characters that draw nothing.
    const data = withoutHiddenLabels(read);
    const entry = { key: String(index), data };
    const identity = codeIdentity(data);
    const inVault = duplicateOf(data, vaultCodes);
    if (inVault) duplicates.push({ ...entry, of: inVault });
    else if (seen.has(identity)) duplicates.push({ ...entry, of: 'file' });
    else fresh.push(entry);
    seen.add(identity);
  });
  return {
    format: result.format,
    fresh,
    duplicates,
    skipped: result.skipped,
    trashed: fresh.filter((entry) => entry.data.display.trashed).length,
  };
}

/** The codes to write: every fresh one, and the duplicates the user chose, in the file's order. */
export function codesToImport(preview: ImportPreview, chosenDuplicates: ReadonlySet<string>): CodeData[] {
  return [...preview.fresh, ...preview.duplicates.filter((entry) => chosenDuplicates.has(entry.key))]
    .sort((a, b) => Number(a.key) - Number(b.key))
    .map((entry) => entry.data);
}
