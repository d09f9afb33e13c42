// What the list shows, from the vault's items and the user's choices: the codes outside the trash (or
// in it), matching the search and every chosen tag, in the chosen order (pinned codes first), then
// the entities that could not be read. Pure, so that the page recomputes it only when an input changes.
import type { SortMode } from '../../services/display-options.ts';
import { allTags, matchesSearch, sortCodes } from '../../services/find.ts';
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
