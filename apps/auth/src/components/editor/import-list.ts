// The list of codes the add dialog shows when an image or link held more than one code: plain codes
// (several QR codes in one image) and the parts of a Google Authenticator export read so far, which
// may span several images (collected by batch id). Which entries are chosen, and which were added.
import {
  collectMigration,
  type CodeText,
  type MigrationCollection,
  type MigrationPart,
} from '../../services/code-import.ts';
import type { CodeData } from '../../services/types.ts';

export interface ImportEntry {
  /** Stable within the list: the checkbox's identity. */
  key: string;
  data: CodeData;
}

export interface ImportListState {
  singles: ImportEntry[];
  collection?: MigrationCollection;
  /** Choices the user made; an entry without one is chosen unless it duplicates a code of the vault. */
  choices: ReadonlyMap<string, boolean>;
  /** Entries already saved (kept, so that trying again after a failure adds only the rest). */
  added: ReadonlySet<string>;
  /** What the last image said about the export (a key of section `editor`). */
  notice?: 'editor.batch_other' | 'editor.batch_repeat';
}

export function emptyImportList(): ImportListState {
  return { singles: [], choices: new Map(), added: new Set() };
}

/** The list with what one image or link held added to it. */
export function withResults(list: ImportListState, results: readonly CodeText[]): ImportListState {
  let singles = list.singles;
  let collection = list.collection;
  let notice: ImportListState['notice'];
  for (const result of results) {
    if (result.kind === 'code') {
      const key = `code:${identity(result.data)}`;
      if (!singles.some((entry) => entry.key === key)) singles = [...singles, { key, data: result.data }];
    } else {
      const collected = collectMigration(collection, result.part);
      collection = collected.collection;
      if (collected.outcome === 'other-export') notice = 'editor.batch_other';
      else if (collected.outcome === 'repeat') notice ??= 'editor.batch_repeat';
    }
  }
  return { ...list, singles, collection, notice };
}

/** Every entry, plain codes first, then the export's codes in the export's order. */
export function importEntries(list: ImportListState): ImportEntry[] {
  const fromExport = (list.collection?.parts ?? []).flatMap((part: MigrationPart | undefined, index) =>
    (part?.codes ?? []).map((data, position) => ({ key: `export:${index}:${position}`, data })),
  );
  return [...list.singles, ...fromExport];
}

/** The export's entries that could not be imported. */
export function skippedEntries(list: ImportListState): MigrationPart['skipped'] {
  return (list.collection?.parts ?? []).flatMap((part) => part?.skipped ?? []);
}

export function isChosen(list: ImportListState, entry: ImportEntry, duplicate: boolean): boolean {
  return list.choices.get(entry.key) ?? !duplicate;
}

export function withChoice(list: ImportListState, key: string, chosen: boolean): ImportListState {
  return { ...list, choices: new Map(list.choices).set(key, chosen) };
}

export function withAdded(list: ImportListState, key: string): ImportListState {
  return { ...list, added: new Set(list.added).add(key) };
}

/** What makes two read codes the same code (the same image read twice). */
function identity(data: CodeData): string {
  return JSON.stringify([data.type, data.secret, data.issuer, data.account, data.algorithm, data.digits, data.period]);
}
