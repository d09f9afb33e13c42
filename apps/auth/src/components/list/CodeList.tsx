// The list of codes: virtualized (only the cards on screen, plus a few, are in the page), scrolled with
// the window, driven by the keyboard, and reordered by drag and drop in manual order.
// See: [Note: The list pattern]
//
// [Note: The list pattern]
// The codes are a `list` of `listitem`s rather than a `grid`: each item is one card with one main
// action (copy), so rows and cells would add structure a screen reader announces without adding
// meaning. Each item carries aria-posinset / aria-setsize, so the position and the length are right
// although only a window of the list exists in the DOM. The item itself takes the focus (named by its
// issuer and account, described by its codes) with a roving tabindex: one item is in the tab order,
// the arrow keys move between items, Tab goes on to the active card's buttons. The active item is
// always rendered, even when scrolled far away, so the focus is never lost to the virtualizer; moving
// the focus to an item that is not rendered renders it first, then focuses it (which scrolls it into
// view). Keys on a focused card: Enter or C copies the current code, N the next one, the context-menu
// key or Shift+F10 opens its actions, Alt+↑/↓ moves it in manual order (announced).
import { styled } from '@mui/material/styles';
import { defaultRangeExtractor, useWindowVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';

import type { Code } from '../../services/types.ts';
import { BrokenCard } from './BrokenCard.tsx';
import { CardActionsContext, CodeCard, type CardActions } from './CodeCard.tsx';
import { entryID, type ListEntry, type ListView } from './list-model.ts';

/** What the list asks its page to do (the drag handlers are the list's own). */
export type ListActions = Omit<CardActions, 'dragStart' | 'dragOver' | 'drop' | 'dragEnd'>;

export interface CodeListProps {
  entries: readonly ListEntry[];
  view: ListView;
  /** The list's accessible name. */
  label: string;
  actions: ListActions;
  compact: boolean;
  hidden: boolean;
  /** The code shown although codes are hidden. */
  revealedID?: string;
  editable: boolean;
  /** Manual order, codes view, editable: cards can be dragged and moved with Alt+↑/↓. */
  reorderable: boolean;
  /** Moves `id` next to `targetID`; the list keeps the focus on the moved card. */
  onMove: (id: string, targetID: string, where: 'before' | 'after') => void;
}

/** Estimated heights (px, gap included) until a card is measured. */
const estimatedHeight = { normal: 132, compact: 52 };

export function CodeList(props: CodeListProps) {
  const { entries, view, label, actions, compact, hidden, revealedID, editable, reorderable, onMove } = props;
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const [activeID, setActiveID] = useState<string>();
  const pendingFocus = useRef<string>(undefined);
  const dragID = useRef<string>(undefined);
  const [dropTarget, setDropTarget] = useState<{ id: string; side: 'before' | 'after' }>();

  const indexByID = useMemo(() => new Map(entries.map((entry, index) => [entryID(entry), index])), [entries]);
  // The active item: the one last focused, or the first when that one left the list.
  const activeIndex = (activeID === undefined ? undefined : indexByID.get(activeID)) ?? 0;
  const estimate = compact ? estimatedHeight.compact : estimatedHeight.normal;

  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (activeIndex < range.count && !indexes.includes(activeIndex)) {
        indexes.push(activeIndex);
        indexes.sort((a, b) => a - b);
      }
      return indexes;
    },
    [activeIndex],
  );

  // Stable while the entries are: a new one makes the virtualizer recompute every item's place.
  const getItemKey = useCallback(
    (index: number) => {
      const entry = entries[index];
      return entry ? entryID(entry) : index;
    },
    [entries],
  );

  const virtualizer = useWindowVirtualizer<HTMLDivElement>({
    count: entries.length,
    estimateSize: () => estimate,
    overscan: 2,
    scrollMargin,
    getItemKey,
    rangeExtractor,
    // Whole pixels: a card measured at 131.9 px then equals the estimate (132) instead of moving every card
    // below it by a fraction, which re-rendered the list after each first render and, with 10,000 codes, had
    // the virtualizer place all of them again at each change (about 100 ms of main thread a second). An
    // element not laid out (height 0) keeps its estimate rather than collapsing the list.
    measureElement: (element) => Math.ceil(element.getBoundingClientRect().height) || estimate,
  });

  // Where the list starts in the page: measured again whenever the content above it changes height
  // (banners, chips, the trash heading), which resizes the page's main element.
  useLayoutEffect(() => {
    const list = listRef.current;
    const parent = list?.parentElement;
    if (!list || !parent) return;
    const measure = () => setScrollMargin(Math.round(list.getBoundingClientRect().top + window.scrollY));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(parent);
    return () => observer.disconnect();
  }, []);

  // Focus asked for by a key or a move, once the item is rendered.
  useLayoutEffect(() => {
    const id = pendingFocus.current;
    if (id === undefined) return;
    const element = listRef.current?.querySelector<HTMLElement>(`[data-code-id="${CSS.escape(id)}"]`);
    if (!element) return;
    pendingFocus.current = undefined;
    if (document.activeElement !== element) element.focus();
  });

  const focusIndex = (index: number) => {
    const entry = entries[Math.max(0, Math.min(entries.length - 1, index))];
    if (!entry) return;
    const id = entryID(entry);
    pendingFocus.current = id;
    setActiveID(id);
    // Already rendered: focus now (the effect does it after the render otherwise).
    listRef.current?.querySelector<HTMLElement>(`[data-code-id="${CSS.escape(id)}"]`)?.focus();
  };

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const id = (event.target as HTMLElement).dataset.codeId;
    const item = (event.target as HTMLElement).closest<HTMLElement>('[role=listitem]');
    const itemID = id ?? item?.dataset.codeId;
    if (itemID !== undefined && itemID !== activeID) setActiveID(itemID);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    // Keys of the cards themselves, not of the buttons inside them.
    if (target.getAttribute('role') !== 'listitem') return;
    const index = Number(target.dataset.index);
    const entry = entries[index];
    if (!entry) return;
    const code = entry.kind === 'code' ? entry.code : undefined;
    const page = Math.max(1, Math.floor(window.innerHeight / estimate) - 1);
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
    let handled = true;
    if (event.altKey && !event.ctrlKey && !event.metaKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      const neighbour = entries[index + (event.key === 'ArrowUp' ? -1 : 1)];
      if (reorderable && code && neighbour?.kind === 'code') {
        pendingFocus.current = code.id;
        onMove(code.id, neighbour.code.id, event.key === 'ArrowUp' ? 'before' : 'after');
      }
    } else if (!plain) {
      handled = event.shiftKey && event.key === 'F10' && openMenu(target, code);
    } else if (event.key === 'ArrowDown') focusIndex(index + 1);
    else if (event.key === 'ArrowUp') focusIndex(index - 1);
    else if (event.key === 'Home') focusIndex(0);
    else if (event.key === 'End') focusIndex(entries.length - 1);
    else if (event.key === 'PageDown') focusIndex(index + page);
    else if (event.key === 'PageUp') focusIndex(index - page);
    else if ((event.key === 'Enter' || event.key.toLowerCase() === 'c') && code && view === 'codes' && !event.shiftKey)
      actions.copy(code, 'current');
    else if (event.key.toLowerCase() === 'n' && code && view === 'codes' && !event.shiftKey) actions.copy(code, 'next');
    else if (event.key === 'ContextMenu') handled = openMenu(target, code);
    else handled = false;
    if (handled) event.preventDefault();
  };

  const openMenu = (item: HTMLElement, code: Code | undefined): boolean => {
    const button = item.querySelector<HTMLElement>('button[aria-haspopup=menu]');
    if (!code || !button) return false;
    actions.openMenu(code, button);
    return true;
  };

  const cardActions = useMemo<CardActions>(
    () => ({
      ...actions,
      dragStart(id: string, event: DragEvent<HTMLElement>) {
        dragID.current = id;
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData('application/x-ente-code', id);
      },
      dragOver(id: string, event: DragEvent<HTMLElement>) {
        if (dragID.current === undefined) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        const rect = event.currentTarget.getBoundingClientRect();
        const side = event.clientY < rect.top + rect.height / 2 ? 'before' : 'after';
        setDropTarget((current) => (current?.id === id && current.side === side ? current : { id, side }));
      },
      drop(id: string, event: DragEvent<HTMLElement>) {
        const moving = dragID.current;
        if (moving === undefined) return;
        event.preventDefault();
        const rect = event.currentTarget.getBoundingClientRect();
        const side = event.clientY < rect.top + rect.height / 2 ? 'before' : 'after';
        dragID.current = undefined;
        setDropTarget(undefined);
        if (moving !== id) {
          pendingFocus.current = moving;
          onMoveRef.current(moving, id, side);
        }
      },
      dragEnd() {
        dragID.current = undefined;
        setDropTarget(undefined);
      },
    }),
    [actions],
  );
  // The latest onMove for the stable drag handlers.
  const onMoveRef = useRef(onMove);
  useLayoutEffect(() => {
    onMoveRef.current = onMove;
  });

  const items = virtualizer.getVirtualItems();
  const setSize = entries.length;
  return (
    <CardActionsContext value={cardActions}>
      <List
        ref={listRef}
        role="list"
        aria-label={label}
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
      >
        {items.map((item) => {
          const entry = entries[item.index];
          if (!entry) return null;
          const common = {
            index: item.index,
            setSize,
            active: item.index === activeIndex,
            compact,
            top: item.start - scrollMargin,
            itemRef: virtualizer.measureElement,
          };
          if (entry.kind === 'broken') return <BrokenCard key={item.key} item={entry.item} {...common} />;
          const id = entry.code.id;
          return (
            <CodeCard
              key={item.key}
              code={entry.code}
              view={view}
              hidden={hidden}
              revealed={revealedID === id}
              editable={editable}
              draggable={reorderable}
              dropSide={dropTarget?.id === id ? dropTarget.side : undefined}
              {...common}
            />
          );
        })}
      </List>
    </CardActionsContext>
  );
}

const List = styled('div')({ position: 'relative', width: '100%' });
