// What the list shows, from the vault's items and the user's choices: the codes outside the trash (or
// in it), matching the search and every chosen tag, in the chosen order (pinned codes first), then
// the entities that could not be read. Pure, so that the page recomputes it only when an input changes.
import type { SortMode } from '../../services/display-options.ts';
import { allTags, matchesSearch, sortCodes } from '../../services/find.ts';
import { moveCode, positionChanges, withPosition, type PositionChange } from '../../services/manual-order.ts';
import type { BrokenItem, Code, VaultItem } from '../../services/types.ts';

export type ListEntry = { kind: 'code'; code: Code } | { kind: 'broken'; item: BrokenItem };

export type ListView = 'codes' | 'trash';

export interface ListFilter {
  view: ListView;
  query: string;
  /** Chosen tag chips: a code must carry every one of them (chips narrow the list). */
  tags: readonly string[];
  sort: SortMode;
}

/** The items with the positions of manual moves not yet written (`positions`: code id → position). */
export function withPositions(items: VaultItem[], positions: ReadonlyMap<string, number>): VaultItem[] {
  if (positions.size === 0) return items;
  return items.map((item) => {
    if (item.kind !== 'code') return item;
    const position = positions.get(item.code.id);
    if (position === undefined || position === item.code.display.position) return item;
    return { kind: 'code', code: withPosition(item.code, position) };
  });
}

/** The view shown: the trash only while it holds something (it ends when the trash empties). */
export function shownView(chosen: ListView, trashCount: number): ListView {
  return chosen === 'trash' && trashCount === 0 ? 'codes' : chosen;
}

/** Splits the vault's items. Recomputed when the items change. */
export function splitItems(items: readonly VaultItem[]): { codes: Code[]; trashed: Code[]; broken: BrokenItem[] } {
  const codes: Code[] = [];
  const trashed: Code[] = [];
  const broken: BrokenItem[] = [];
  for (const item of items) {
    if (item.kind === 'broken') broken.push(item.item);
    else if (item.code.display.trashed) trashed.push(item.code);
    else codes.push(item.code);
  }
  return { codes, trashed, broken };
}

/** The order of the codes outside the trash: the chosen sort, pinned codes first. */
export function orderCodes(codes: readonly Code[], sort: SortMode): Code[] {
  return sortCodes(codes, sort);
}

/** The entries of the list: the view's codes matching the search and every chosen tag. */
export function filterEntries(
  ordered: readonly Code[],
  trashed: readonly Code[],
  broken: readonly BrokenItem[],
  filter: ListFilter,
): ListEntry[] {
  const query = filter.query.trim();
  const matches = (code: Code) =>
    (!query || matchesSearch(code, query)) && filter.tags.every((tag) => code.display.tags.includes(tag));
  if (filter.view === 'trash') {
    return sortCodes(trashed, filter.sort === 'manual' ? 'issuer' : filter.sort)
      .filter(matches)
      .map((code) => ({ kind: 'code', code }));
  }
  const entries = ordered.filter(matches).map((code): ListEntry => ({ kind: 'code', code }));
  // Unreadable entities have no tags; they show while no tag is chosen, matched by issuer.
  if (filter.tags.length === 0) {
    const needle = query.toLowerCase();
    for (const item of broken) {
      if (!needle || (item.issuer ?? '').toLowerCase().includes(needle)) entries.push({ kind: 'broken', item });
    }
  }
  return entries;
}

/** Tags of the codes outside the trash, for the chips. */
export function tagsOf(codes: readonly Code[]): string[] {
  return allTags(codes);
}

/** The key of an entry (stable across renders, for the virtualizer and React). */
export function entryID(entry: ListEntry): string {
  return entry.kind === 'code' ? entry.code.id : entry.item.id;
}

/** The codes next to `code` in the list that it may swap with (same side of the pinned boundary). */
export function neighboursOf(entries: readonly ListEntry[], code: Code): { up?: Code; down?: Code } {
  const index = entries.findIndex((entry) => entry.kind === 'code' && entry.code.id === code.id);
  const before = entries[index - 1];
  const after = entries[index + 1];
  return {
    up: before?.kind === 'code' && before.code.display.pinned === code.display.pinned ? before.code : undefined,
    down: after?.kind === 'code' && after.code.display.pinned === code.display.pinned ? after.code : undefined,
  };
}

/** A manual move planned: the position writes, and where the moved code lands among the entries shown. */
export interface PlannedMove {
  changes: PositionChange[];
  moved: Code;
  /** 1-based place in the list shown, of `total` entries. */
  position: number;
  total: number;
}

/**
 * Moving `id` before or after `targetID` in the manual order `ordered`, as the list `entries` shows it.
 * Undefined when nothing would change.
 */
export function planMove(
  ordered: readonly Code[],
  entries: readonly ListEntry[],
  id: string,
  targetID: string,
  where: 'before' | 'after',
): PlannedMove | undefined {
  const next = moveCode(ordered, id, targetID, where);
  if (!next) return undefined;
  const changes = positionChanges(next);
  const moved = next.find((code) => code.id === id);
  if (changes.length === 0 || !moved) return undefined;
  const visible = entries.filter((entry) => entry.kind === 'code' && entry.code.id !== id);
  const target = visible.findIndex((entry) => entry.kind === 'code' && entry.code.id === targetID);
  return { changes, moved, position: target + (where === 'after' ? 2 : 1), total: entries.length };
}
