// Which files of a grid are selected, pure (no DOM, no React): the selected ids and the anchor of the next
// range (the file last toggled). Every operation returns a new selection and leaves its input alone, so a page
// can keep it in state and compare by reference.

export interface Selection {
  readonly ids: ReadonlySet<number>;
  /** The file a shift-click or Shift+Space extends from: the one last toggled. */
  readonly anchor?: number;
}

export const emptySelection: Selection = { ids: new Set() };

/** Selects `id` if it was not, deselects it if it was; it becomes the anchor. */
export function toggle(selection: Selection, id: number): Selection {
  const ids = new Set(selection.ids);
  if (!ids.delete(id)) ids.add(id);
  return { ids, anchor: id };
}

/**
 * Adds every file from the anchor to `id`, both included, in the grid's `order` (ids), to the selection. Without
 * an anchor still in the grid, toggles `id` instead. The anchor stays, so that another shift-click re-extends
 * from it.
 */
export function selectRange(selection: Selection, order: readonly number[], id: number): Selection {
  const from = selection.anchor === undefined ? -1 : order.indexOf(selection.anchor);
  const to = order.indexOf(id);
  if (from < 0 || to < 0) return toggle(selection, id);
  const ids = new Set(selection.ids);
  for (let i = Math.min(from, to); i <= Math.max(from, to); i++) ids.add(order[i] as number);
  return { ids, anchor: selection.anchor };
}

/** Selects (`on`) or deselects every one of `ids` (a day's files); the anchor stays. */
export function setMany(selection: Selection, ids: readonly number[], on: boolean): Selection {
  const next = new Set(selection.ids);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return { ids: next, anchor: selection.anchor };
}

/** Every one of `order`. */
export function selectAll(order: readonly number[]): Selection {
  return { ids: new Set(order), anchor: order[0] };
}

/** Whether every one of `ids` is selected (and there is at least one). */
export function allSelected(selection: Selection, ids: readonly number[]): boolean {
  return ids.length > 0 && ids.every((id) => selection.ids.has(id));
}

/** Whether some but not all of `ids` are selected. */
export function someSelected(selection: Selection, ids: readonly number[]): boolean {
  const count = ids.reduce((n, id) => n + (selection.ids.has(id) ? 1 : 0), 0);
  return count > 0 && count < ids.length;
}

/**
 * The selection without the files no longer in `present` (trashed, moved out of the album shown), itself when
 * nothing left, so that a page can prune on every change of its files without a new render.
 */
export function prune(selection: Selection, present: ReadonlySet<number>): Selection {
  if ([...selection.ids].every((id) => present.has(id))) return selection;
  const ids = new Set([...selection.ids].filter((id) => present.has(id)));
  const anchor = selection.anchor !== undefined && present.has(selection.anchor) ? selection.anchor : undefined;
  return { ids, anchor };
}

/**
 * The files of `ids` (a selection's, which may be every file), in the order of `files`; an id with no file is left
 * out. One pass over each (a lookup in `ids` per file would be quadratic in a select-all of a large album).
 */
export function selectedFiles<F extends { id: number }>(files: readonly F[], ids: Iterable<number>): F[] {
  const wanted = new Set(ids);
  return files.filter((file) => wanted.has(file.id));
}
