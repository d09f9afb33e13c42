// What clicks, touches and keys on the gallery grid do to its selection (selection-model.ts), kept out of the
// grid's layout. A plain click opens the file, except while something is selected, when it toggles it (as
// photo apps do: one starts selecting, then picks by tapping); Ctrl or ⌘ with a click, the cell's checkbox and a
// long press toggle; Shift with a click extends from the anchor; a mouse dragged from a cell across others selects
// the files from that cell to the one under the pointer, added to what was selected before (moving back shrinks it).
// Keys on a cell: Space toggles (Shift+Space extends), Enter opens, Escape clears, Ctrl/⌘+A selects every file.
import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
} from 'react';

import type { GalleryFile } from '../../library/types.ts';
import type { GridModel } from '../gallery/grid-model.ts';
import {
  allSelected,
  emptySelection,
  selectAll,
  selectRange,
  setMany,
  toggle,
  type Selection,
} from './selection-model.ts';

/** How long a touch must stay for a long press, ms. */
const longPressMs = 500;
/** How far a touch may move and still be a press (not a scroll), px. */
const longPressSlop = 10;

export interface GridSelectionOptions {
  model: GridModel;
  /** Undefined: the grid does not select (every click opens). */
  selection: Selection | undefined;
  onSelectionChange: ((next: Selection) => void) | undefined;
  onOpen: (file: GalleryFile, index: number, ordered: readonly GalleryFile[]) => void;
}

export interface GridSelectionHandlers {
  /** Click on a cell's button. */
  click: (event: MouseEvent<HTMLElement>) => void;
  /** A cell's checkbox changed (with Shift: extend from the anchor). */
  check: (id: number, shift: boolean) => void;
  /** Selects or deselects the whole of a day (its header's checkbox). */
  toggleDay: (dayFiles: readonly GalleryFile[]) => void;
  pointerDown: (event: PointerEvent<HTMLElement>) => void;
  pointerMove: (event: PointerEvent<HTMLElement>) => void;
  pointerEnd: () => void;
  /** A long press on a touch screen also asks for the context menu: selecting wins. */
  contextMenu: (event: MouseEvent<HTMLElement>) => void;
  /** Keys the selection takes on a focused cell (true when it handled the key). */
  key: (event: KeyboardEvent<HTMLElement>, index: number) => boolean;
}

export function useGridSelection({ model, selection, onSelectionChange, onOpen }: GridSelectionOptions) {
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number }>(undefined);
  // A long press toggled: the click the browser sends when the finger lifts must not toggle again.
  const suppressClick = useRef(false);
  // A mouse press on a cell, a drag once it reaches another: the selection before it, and the cell it started on.
  const drag = useRef<{ start: number; before: Selection; dragging: boolean }>(undefined);
  const order = useMemo(() => model.ordered.map((file) => file.id), [model]);

  // The handlers stay the same functions (the memoized cells keep them) and read the latest props.
  const latest = useRef({ model, order, selection, onSelectionChange, onOpen });
  useLayoutEffect(() => {
    latest.current = { model, order, selection, onSelectionChange, onOpen };
  });
  // A press still timing when the grid goes away selects nothing.
  useEffect(() => () => clearTimeout(press.current?.timer), []);
  // A drag ends wherever the button is let go (between cells, outside the grid).
  useEffect(() => {
    const end = () => (drag.current = undefined);
    window.addEventListener('pointerup', end);
    return () => window.removeEventListener('pointerup', end);
  }, []);

  return useMemo<GridSelectionHandlers>(() => {
    const change = (make: (current: Selection) => Selection) => {
      const { selection: current, onSelectionChange: set } = latest.current;
      if (current && set) set(make(current));
    };
    const idOf = (element: HTMLElement) => {
      const id = Number(element.closest<HTMLElement>('[data-file-id]')?.dataset.fileId);
      return Number.isNaN(id) ? undefined : id;
    };
    const open = (id: number) => {
      const { model: current, onOpen: openFile } = latest.current;
      const index = current.indexOfID.get(id);
      const file = index === undefined ? undefined : current.ordered[index];
      if (file && index !== undefined) openFile(file, index, current.ordered);
    };
    const cancelPress = () => {
      if (press.current) clearTimeout(press.current.timer);
      press.current = undefined;
    };
    return {
      click(event) {
        const id = idOf(event.currentTarget);
        if (id === undefined) return;
        if (suppressClick.current) {
          suppressClick.current = false;
          return;
        }
        const { selection: current, order: ids } = latest.current;
        const canSelect = current !== undefined && latest.current.onSelectionChange !== undefined;
        if (canSelect && event.shiftKey) change((s) => selectRange(s, ids, id));
        else if (canSelect && (event.ctrlKey || event.metaKey || current.ids.size > 0)) change((s) => toggle(s, id));
        else open(id);
      },
      check(id, shift) {
        change((s) => (shift ? selectRange(s, latest.current.order, id) : toggle(s, id)));
      },
      toggleDay(dayFiles) {
        const ids = dayFiles.map((file) => file.id);
        change((s) => setMany(s, ids, !allSelected(s, ids)));
      },
      pointerDown(event) {
        // A long press whose click never came (the browser showed a menu instead) must not eat this one.
        suppressClick.current = false;
        drag.current = undefined;
        const { selection: current, onSelectionChange: set } = latest.current;
        if (!current || !set) return;
        const id = idOf(event.currentTarget);
        if (id === undefined) return;
        if (event.pointerType === 'mouse') {
          // Shift with a click extends from the anchor instead.
          if (event.button === 0 && !event.shiftKey) drag.current = { start: id, before: current, dragging: false };
          return;
        }
        cancelPress();
        const timer = setTimeout(() => {
          press.current = undefined;
          suppressClick.current = true;
          change((s) => toggle(s, id));
        }, longPressMs);
        press.current = { timer, x: event.clientX, y: event.clientY };
      },
      pointerMove(event) {
        const dragged = drag.current;
        if (dragged && event.pointerType === 'mouse') {
          // The button went up where no handler saw it.
          if ((event.buttons & 1) === 0) {
            drag.current = undefined;
            return;
          }
          const id = idOf(event.currentTarget);
          if (id === undefined || (id === dragged.start && !dragged.dragging)) return;
          dragged.dragging = true;
          // Let go on a cell, the click that follows is the drag's end, not a click.
          suppressClick.current = true;
          const { before, start } = dragged;
          change(() => selectRange({ ids: before.ids, anchor: start }, latest.current.order, id));
          return;
        }
        const start = press.current;
        if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > longPressSlop) cancelPress();
      },
      pointerEnd() {
        cancelPress();
        drag.current = undefined;
      },
      contextMenu(event) {
        if (press.current || suppressClick.current) event.preventDefault();
      },
      key(event, index) {
        const { selection: current, order: ids, onSelectionChange: set } = latest.current;
        const id = ids[index];
        if (id === undefined) return false;
        const command = event.ctrlKey || event.metaKey;
        if (event.key === 'Enter' && !command && !event.shiftKey) {
          open(id);
          return true;
        }
        if (!current || !set) return false;
        if (event.key === ' ' && !command) {
          change((s) => (event.shiftKey ? selectRange(s, ids, id) : toggle(s, id)));
          return true;
        }
        if (event.key === 'Escape' && current.ids.size > 0) {
          set(emptySelection);
          return true;
        }
        if (command && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'a') {
          set(selectAll(ids));
          return true;
        }
        return false;
      },
    };
  }, []);
}
