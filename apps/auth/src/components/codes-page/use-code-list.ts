// The list of the codes page as the person narrows it: the search, the chosen tag chips and the view
// (codes or trash) over the vault's items, each derived value recomputed only when its inputs change
// (the pure parts are list/list-model.ts).
import { useCallback, useMemo, useState } from 'react';

import type { SortMode } from '../../services/display-options.ts';
import type { BrokenItem, Code, VaultItem } from '../../services/types.ts';
import {
  filterEntries,
  orderCodes,
  shownView,
  splitItems,
  tagsOf,
  withPositions,
  type ListEntry,
  type ListView,
} from '../list/list-model.ts';

export interface CodeList {
  codes: Code[];
  trashed: Code[];
  broken: BrokenItem[];
  /** The codes outside the trash, in the order shown. */
  ordered: Code[];
  /** Every code, trashed ones included (for export, import and duplicates). */
  allCodes: Code[];
  entries: ListEntry[];
  /** Whether there are codes (readable or not) outside the trash: the search, sort and chips show then. */
  hasCodes: boolean;
  tags: string[];
  chosenTags: string[];
  setSelectedTags: (tags: string[]) => void;
  query: string;
  setQuery: (query: string) => void;
  clearSearch: () => void;
  view: ListView;
  setView: (view: ListView) => void;
}

export function useCodeList(
  vaultItems: VaultItem[],
  pendingPositions: ReadonlyMap<string, number>,
  sort: SortMode,
): CodeList {
  const [query, setQuery] = useState('');
  const [selectedTags, setSelectedTags] = useState<string[]>([]);
  const [chosenView, setView] = useState<ListView>('codes');

  const items = useMemo(() => withPositions(vaultItems, pendingPositions), [vaultItems, pendingPositions]);
  const { codes, trashed, broken } = useMemo(() => splitItems(items), [items]);
  // Back to the codes when the trash empties (also for a later trashing).
  const view = shownView(chosenView, trashed.length);
  if (view !== chosenView) setView(view);
  const ordered = useMemo(() => orderCodes(codes, sort), [codes, sort]);
  const tags = useMemo(() => tagsOf(codes), [codes]);
  const chosenTags = useMemo(() => selectedTags.filter((tag) => tags.includes(tag)), [selectedTags, tags]);
  const entries = useMemo(
    () => filterEntries(ordered, trashed, broken, { view, query, tags: chosenTags, sort }),
    [ordered, trashed, broken, view, query, chosenTags, sort],
  );
  const allCodes = useMemo(() => [...codes, ...trashed], [codes, trashed]);
  const clearSearch = useCallback(() => {
    setQuery('');
    setSelectedTags([]);
  }, []);

  return {
    codes,
    trashed,
    broken,
    ordered,
    allCodes,
    entries,
    hasCodes: codes.length > 0 || broken.length > 0,
    tags,
    chosenTags,
    setSelectedTags,
    query,
    setQuery,
    clearSearch,
    view,
    setView,
  };
}
