// The gallery grid's model, pure (no DOM): the files grouped by the local day they were taken, newest first,
// then cut into rows of as many cells as the width holds, each day starting with its header row. Built once
// per change of the files (the days) and of the column count (the rows), never per scroll: with 10,000 files
// the grid renders a few rows from it and looks everything else up by index.
import type { GalleryFile } from '../../library/types.ts';

/** When the file was taken as the gallery shows it (the edited time wins), µs since the epoch. */
export function fileTime(file: GalleryFile): number {
  return file.editedTime ?? file.metadata.creationTime;
}

/** The files of one local day, newest first. */
export interface Day {
  /** The local date, `YYYY-MM-DD`, or `unknown`. */
  key: string;
  /** Local midnight of that day, ms since the epoch (for its label); NaN for the files of no known date. */
  start: number;
  files: GalleryFile[];
}

/** The files by local day, newest day first, newest first within a day (then the higher id first). */
export function groupByDay(files: readonly GalleryFile[]): Day[] {
  // A time no Date holds (the model refuses them; this is the backstop) sorts last, in a day of its own.
  const sorted = files
    .map((file) => ({ file, time: fileTime(file), date: new Date(fileTime(file) / 1000) }))
    .map((entry) => (Number.isNaN(entry.date.getTime()) ? { ...entry, time: -Infinity } : entry))
    .sort((a, b) => (a.time === b.time ? 0 : b.time > a.time ? 1 : -1) || b.file.id - a.file.id);
  const days: Day[] = [];
  let current: Day | undefined;
  for (const { file, date } of sorted) {
    const year = date.getFullYear();
    const month = date.getMonth();
    const dayOfMonth = date.getDate();
    const known = !Number.isNaN(year);
    const key = known
      ? `${year}-${String(month + 1).padStart(2, '0')}-${String(dayOfMonth).padStart(2, '0')}`
      : 'unknown';
    if (current?.key !== key) {
      current = { key, start: known ? new Date(year, month, dayOfMonth).getTime() : NaN, files: [] };
      days.push(current);
    }
    current.files.push(file);
  }
  return days;
}

/**
 * `groupByDay(files)`, made once per files array: the grid and the viewer over it (the same array from the page) share
 * one grouping, and a render with the same array groups nothing.
 */
export function daysOf(files: readonly GalleryFile[]): readonly Day[] {
  let days = grouped.get(files);
  if (!days) {
    days = groupByDay(files);
    grouped.set(files, days);
  }
  return days;
}

const grouped = new WeakMap<readonly GalleryFile[], Day[]>();

/** The files in the grid's order (by day, newest first): the order of the viewer's previous and next. */
export function orderedByDay(files: readonly GalleryFile[]): readonly GalleryFile[] {
  let ordered = flattened.get(files);
  if (!ordered) {
    ordered = daysOf(files).flatMap((day) => day.files);
    flattened.set(files, ordered);
  }
  return ordered;
}

const flattened = new WeakMap<readonly GalleryFile[], GalleryFile[]>();

export type GridRow =
  | { kind: 'day'; key: string; day: Day; dayIndex: number }
  | {
      kind: 'cells';
      key: string;
      day: Day;
      dayIndex: number;
      files: GalleryFile[];
      /** The index of the row's first file in `GridModel.ordered`. */
      first: number;
    };

export interface GridModel {
  rows: GridRow[];
  /** Every file in the grid's order (the order of ranges, of the viewer's previous and next). */
  ordered: GalleryFile[];
  /** For each index of `ordered`, the index of its row. */
  rowOfIndex: Int32Array;
  /** For each file id, its index in `ordered`. */
  indexOfID: Map<number, number>;
  columns: number;
}

/** The rows of `days` at `columns` cells a row: each day's header, then its files, `columns` at a time. */
export function gridModel(days: readonly Day[], columns: number): GridModel {
  const rows: GridRow[] = [];
  const ordered: GalleryFile[] = [];
  const perRow = Math.max(1, Math.floor(columns));
  days.forEach((day, dayIndex) => {
    rows.push({ kind: 'day', key: `day-${day.key}`, day, dayIndex });
    for (let offset = 0; offset < day.files.length; offset += perRow) {
      const files = day.files.slice(offset, offset + perRow);
      rows.push({ kind: 'cells', key: `${day.key}-${offset}`, day, dayIndex, files, first: ordered.length });
      ordered.push(...files);
    }
  });
  const rowOfIndex = new Int32Array(ordered.length);
  const indexOfID = new Map<number, number>();
  rows.forEach((row, rowIndex) => {
    if (row.kind !== 'cells') return;
    for (let i = 0; i < row.files.length; i++) rowOfIndex[row.first + i] = rowIndex;
  });
  ordered.forEach((file, index) => indexOfID.set(file.id, index));
  return { rows, ordered, rowOfIndex, indexOfID, columns: perRow };
}

/** How many square cells a row of `width` px holds: at least 3, each at least 100 px (160 px on wider screens). */
export function columnsFor(width: number, gap: number): number {
  const minCell = width < 600 ? 100 : 160;
  return Math.max(3, Math.floor((width + gap) / (minCell + gap)));
}

export type GridMove = 'left' | 'right' | 'up' | 'down' | 'home' | 'end' | 'pageUp' | 'pageDown';

/**
 * The index of `ordered` a key moves the focus to from `index`: left and right along the order (across rows and
 * days), up and down to the same column of the cells row above or below (the last cell of a shorter row), home
 * and end to the first and last file, page up and down by `pageRows` cells rows.
 */
export function moveIndex(model: GridModel, index: number, move: GridMove, pageRows = 1): number {
  const last = model.ordered.length - 1;
  if (last < 0) return -1;
  const clamp = (value: number) => Math.max(0, Math.min(last, value));
  if (move === 'left') return clamp(index - 1);
  if (move === 'right') return clamp(index + 1);
  if (move === 'home') return 0;
  if (move === 'end') return last;
  const steps = move === 'pageUp' || move === 'pageDown' ? Math.max(1, pageRows) : 1;
  const direction = move === 'up' || move === 'pageUp' ? -1 : 1;
  let rowIndex = model.rowOfIndex[clamp(index)] ?? 0;
  const startRow = model.rows[rowIndex];
  const column = startRow?.kind === 'cells' ? clamp(index) - startRow.first : 0;
  let target = startRow;
  for (let moved = 0; moved < steps;) {
    rowIndex += direction;
    const row = model.rows[rowIndex];
    if (!row) break;
    if (row.kind === 'cells') {
      target = row;
      moved++;
    }
  }
  if (target?.kind !== 'cells') return clamp(index);
  return target.first + Math.min(column, target.files.length - 1);
}
