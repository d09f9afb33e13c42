// The gallery grid: the files by day, newest first, a header row per day and rows of square thumbnails as many
// to a row as the width holds, virtualized against the window's scroll (only the rows on screen, and a few
// around them, are in the DOM), so that tens of thousands of files scroll smoothly. With a selection it also
// selects (../selection/use-grid-selection.ts says how).
// See: [Note: The gallery grid pattern]
//
// [Note: The gallery grid pattern]
// An ARIA `grid`: each row of the model (grid-model.ts) is a `row`, a day's header one cell (an h2, so that a
// screen reader can jump from day to day, and the day's checkbox), each file a `gridcell` (aria-selected while
// the grid selects) holding one button named by its thumbnail's alt text (the title) and its badge ("Video",
// "Live photo"), and its checkbox outside the button. aria-rowcount and aria-rowindex keep the position right
// though only a window of the rows exists. Focus is a roving tabindex over the files' buttons: one is in the tab
// order, the arrow keys, Home, End, Page Up and Page Down move it (grid-model.ts, moveIndex), and the focused
// file's row is always rendered, so the virtualizer never takes the focus away; moving to a row not rendered
// renders it first, then focuses it, which scrolls it into view. The row model is rebuilt only when the files
// or the column count change; a scroll only picks rows.
import Box from '@mui/material/Box';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';

import { currentLocale } from '@ente/shared/i18n/i18n.ts';

import type { GalleryFile } from '../../library/types.ts';
import { allSelected, someSelected, type Selection } from '../selection/selection-model.ts';
import { useGridSelection } from '../selection/use-grid-selection.ts';
import { dayLabel } from './day-label.ts';
import { columnsFor, daysOf, gridModel, moveIndex, type Day, type GridModel, type GridMove } from './grid-model.ts';
import { CellsRow, cellStyles, DayHeader, gap, headerHeight, type RowLabels } from './GridRows.tsx';
import { PlaceholderThumbnail, type ThumbnailProps } from './Thumbnail.tsx';
import { useWindowRows } from './window-rows.ts';

export interface GalleryGridProps {
  /** The files to show, in any order (the grid sorts them by day). */
  files: readonly GalleryFile[];
  /** The grid's accessible name; "Photos by day" unless given. */
  label?: string;
  /**
   * Draws a cell's thumbnail (the media loader's: see `thumbnailFromHook`); a placeholder unless given. Keep it
   * the same component from render to render, or every cell is drawn anew.
   */
  Thumbnail?: ComponentType<ThumbnailProps>;
  /** A file was opened (click, Enter): the file, its index in `ordered`, and the grid's order. */
  onOpen: (file: GalleryFile, index: number, ordered: readonly GalleryFile[]) => void;
  /** The selection (selection-model.ts); without it and `onSelectionChange` the grid does not select. */
  selection?: Selection;
  onSelectionChange?: (next: Selection) => void;
  /** The clock for "Today" and "Yesterday" (ms); the time of the render unless given. */
  now?: number;
}

export function GalleryGrid(props: GalleryGridProps) {
  const { files, label, Thumbnail = PlaceholderThumbnail, onOpen, selection, onSelectionChange, now } = props;
  const { t } = useTranslation('photos');
  const gridRef = useRef<HTMLDivElement>(null);
  const width = useWidth(gridRef);
  const columns = columnsFor(width, gap);
  const cellSize = Math.max(1, Math.floor((width - gap * (columns - 1)) / columns));

  const model = useMemo(() => gridModel(daysOf(files), columns), [files, columns]);
  const { rows, ordered } = model;
  const selects = selection !== undefined && onSelectionChange !== undefined;
  const selected = selects ? selection.ids : undefined;
  const handlers = useGridSelection({ model, selection: selects ? selection : undefined, onSelectionChange, onOpen });

  const [activeID, setActiveID] = useState<number>();
  // The focused file: the one last focused, or the first when that one left the grid.
  const activeIndex = (activeID === undefined ? undefined : model.indexOfID.get(activeID)) ?? 0;
  const activeRow = model.rowOfIndex[activeIndex] ?? -1;
  const pendingFocus = useRef<number>(undefined);
  const scrollMargin = usePageTop(gridRef);

  const keyOf = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const sizeOf = useCallback(
    (index: number) => (rows[index]?.kind === 'day' ? headerHeight : cellSize + gap),
    [rows, cellSize],
  );
  // Every row's height is known from the width: a new cell size places every row again (no measuring). The focused
  // file's row is always rendered (`keep`).
  const virtualizer = useWindowRows({
    count: rows.length,
    sizeOf,
    keyOf,
    overscan: 3,
    scrollMargin,
    keep: activeRow,
  });

  // Focus asked for by a key, once the file's row is rendered.
  useLayoutEffect(() => {
    const id = pendingFocus.current;
    if (id === undefined) return;
    const button = buttonOf(gridRef, id);
    if (!button) return;
    pendingFocus.current = undefined;
    if (document.activeElement !== button) button.focus();
  });

  const focusIndex = (index: number) => {
    const file = ordered[index];
    if (!file) return;
    pendingFocus.current = file.id;
    setActiveID(file.id);
    const row = model.rowOfIndex[index];
    if (row !== undefined) virtualizer.scrollToIndex(row);
    buttonOf(gridRef, file.id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = indexOfTarget(event.target, model);
    if (index === undefined) return;
    if (handlers.key(event, index)) {
      event.preventDefault();
      return;
    }
    const move = keyMoves[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const pageRows = Math.max(1, Math.floor(window.innerHeight / (cellSize + gap)) - 1);
    focusIndex(moveIndex(model, index, move, pageRows));
  };

  const clock = useClock(now);
  const locale = currentLocale();
  const labels = useMemo<RowLabels>(
    () => ({
      untitled: t('grid.untitled'),
      select: (title) => t('selection.select', { title }),
      selectDay: (day) => t('selection.select_day', { day }),
      video: t('grid.video'),
      livePhoto: t('grid.live_photo'),
    }),
    [t],
  );
  const selecting = selected !== undefined && selected.size > 0;
  return (
    <Box
      ref={gridRef}
      role="grid"
      aria-label={label ?? t('grid.label')}
      aria-multiselectable={selects || undefined}
      aria-rowcount={rows.length}
      aria-colcount={columns}
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        const index = indexOfTarget(event.target, model);
        const id = index === undefined ? undefined : ordered[index]?.id;
        if (id !== undefined && id !== activeID) setActiveID(id);
      }}
      sx={gridSx}
      style={{ height: virtualizer.totalSize }}
    >
      {virtualizer.rows.map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        const top = item.start;
        return row.kind === 'day' ? (
          <DayHeader
            key={item.key}
            day={row.day}
            rowIndex={item.index}
            label={labelOf(row.day, clock, locale, t)}
            labels={labels}
            checked={selects ? dayChecked(selection, row.day) : undefined}
            handlers={handlers}
            top={top}
            height={item.size}
          />
        ) : (
          <CellsRow
            key={item.key}
            row={row}
            rowIndex={item.index}
            cellSize={cellSize}
            activeColumn={item.index === activeRow ? activeIndex - row.first : -1}
            selected={selected}
            selecting={selecting}
            Thumbnail={Thumbnail}
            handlers={handlers}
            labels={labels}
            top={top}
            height={item.size}
          />
        );
      })}
    </Box>
  );
}

/** The grid's own styles and its rows' and cells' (one object: the same styles every render). */
const gridSx = { position: 'relative', width: '100%', ...cellStyles } as const;

const keyMoves: Partial<Record<string, GridMove>> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
  Home: 'home',
  End: 'end',
  PageUp: 'pageUp',
  PageDown: 'pageDown',
};

function dayChecked(selection: Selection, day: Day): 'all' | 'some' | 'none' {
  const ids = day.files.map((file) => file.id);
  return allSelected(selection, ids) ? 'all' : someSelected(selection, ids) ? 'some' : 'none';
}

function labelOf(
  day: Day,
  now: number,
  locale: string,
  t: (key: 'grid.today' | 'grid.yesterday' | 'grid.unknown_date') => string,
): string {
  const label = dayLabel(day.start, now, locale);
  if (label === 'unknown') return t('grid.unknown_date');
  return label === 'today' ? t('grid.today') : label === 'yesterday' ? t('grid.yesterday') : label.text;
}

function buttonOf(grid: RefObject<HTMLElement | null>, id: number): HTMLElement | null | undefined {
  return grid.current?.querySelector<HTMLElement>(`button[data-file-id="${id}"]`);
}

/** The index in `ordered` of the file whose cell `target` is in. */
function indexOfTarget(target: EventTarget, model: GridModel): number | undefined {
  const cell = target instanceof HTMLElement ? target.closest<HTMLElement>('[data-file-id]') : null;
  const id = cell ? Number(cell.dataset.fileId) : NaN;
  return Number.isNaN(id) ? undefined : model.indexOfID.get(id);
}

/** `fixed` if given, else the time, moved on at each local midnight (for "Today" and "Yesterday"). */
function useClock(fixed: number | undefined): number {
  const [clock, setClock] = useState(() => fixed ?? Date.now());
  useEffect(() => {
    if (fixed !== undefined) return;
    const current = new Date();
    const midnight = new Date(current.getFullYear(), current.getMonth(), current.getDate() + 1).getTime();
    const timer = setTimeout(() => setClock(Date.now()), midnight - current.getTime() + 1000);
    return () => clearTimeout(timer);
  }, [fixed, clock]);
  return fixed ?? clock;
}

/**
 * Where the element starts in the page (px below the document's top): the virtualizer's scroll margin, which places
 * its rows and scrolls to one. Read again whenever something before the grid changes height (the page's header as its
 * buttons wrap, a heading, a banner or bar that appears): every element before it and before each element holding it
 * is observed, and the holders themselves (an element added before the grid changes its holder's height).
 */
function usePageTop(ref: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const read = () => setTop(Math.round(element.getBoundingClientRect().top + window.scrollY));
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(read);
    for (let node: Element | null = element; node && node !== document.body; node = node.parentElement) {
      if (node !== element) observer.observe(node);
      for (let before = node.previousElementSibling; before; before = before.previousElementSibling) {
        observer.observe(before);
      }
    }
    return () => observer.disconnect();
  }, [ref]);
  return top;
}

/** The element's width, followed as it changes; the window's until the first layout (and in a test's DOM). */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? 1024 : window.innerWidth));
  // Before the first paint: the columns of the window's width would show for a frame otherwise.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const measured = element.clientWidth;
      if (measured > 0) setWidth(measured);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
