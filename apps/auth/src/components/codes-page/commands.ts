// Every command of the codes page in one map, run by the toolbar, the card menu, the cards and the
// keyboard alike: the page's own (add, search, import, export, tags) and those on one code (copy, edit,
// pin, share, trash, move, …). The map is stable for the page's life and each command reads the page's
// latest state when it runs, so the cards that hold it need not re-render when the list changes.
import { useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';

import type { PositionChange } from '../../services/manual-order.ts';
import type { Code, CodeData } from '../../services/types.ts';
import type { CardMenuAction } from '../list/CardMenu.tsx';
import { neighboursOf, planMove, type ListEntry } from '../list/list-model.ts';
import type { PageDialog } from './page-dialog.ts';

export type PageCommand = 'add' | 'focusSearch' | 'clearSearch' | 'import' | 'export' | 'manageTags';
export type CodeCommand = CardMenuAction | 'copy' | 'restore' | 'deleteForever';

export interface Commands {
  page: Record<PageCommand, () => void>;
  code: Record<CodeCommand, (code: Code) => void>;
  /** A manual move (drag and drop, Alt+arrow, the menu): `id` goes before or after `targetID`. */
  move: (id: string, targetID: string, where: 'before' | 'after') => void;
}

/** The toasts and announcements the commands make. */
export type CommandText = 'list.unpinned' | 'list.pinnedDone' | 'list.advanced' | 'list.trashed' | 'list.restored';

/** What the commands act through: the page's state at the time a command runs. */
export interface CommandContext {
  openDialog: (dialog: PageDialog) => void;
  focusSearch: () => void;
  clearSearch: () => void;
  copy: (code: Code, which: 'current' | 'next') => void;
  write: (code: Code, change: (data: CodeData) => CodeData, done?: string) => Promise<void>;
  confirmDeleteForever: (code: Code) => void;
  writePositions: (changes: PositionChange[]) => void;
  /** The manual order shown and the list's entries, and whether a move is allowed now. */
  ordered: readonly Code[];
  entries: readonly ListEntry[];
  reorderable: boolean;
  announce: (text: string) => void;
  say: (key: CommandText) => string;
  sayMoved: (code: Code, position: number, total: number) => string;
}

/** The command map over `context()`, read at each command's run. */
export function createCommands(context: () => CommandContext): Commands {
  const write = (code: Code, change: (data: CodeData) => CodeData, done?: CommandText) => {
    const c = context();
    void c.write(code, change, done && c.say(done));
  };
  const move: Commands['move'] = (id, targetID, where) => {
    const c = context();
    if (!c.reorderable) return;
    const plan = planMove(c.ordered, c.entries, id, targetID, where);
    if (!plan) return;
    c.writePositions(plan.changes);
    c.announce(c.sayMoved(plan.moved, plan.position, plan.total));
  };
  return {
    page: {
      add: () => context().openDialog({ kind: 'editor', target: { kind: 'add' } }),
      focusSearch: () => context().focusSearch(),
      clearSearch: () => context().clearSearch(),
      import: () => context().openDialog({ kind: 'import' }),
      export: () => context().openDialog({ kind: 'export' }),
      manageTags: () => context().openDialog({ kind: 'tags' }),
    },
    code: {
      copy: (code) => context().copy(code, 'current'),
      copyNext: (code) => context().copy(code, 'next'),
      edit: (code) => context().openDialog({ kind: 'editor', target: { kind: 'edit', code } }),
      showQR: (code) => context().openDialog({ kind: 'showQR', code }),
      share: (code) => context().openDialog({ kind: 'share', code }),
      pin: (code) =>
        write(
          code,
          (data) => ({ ...data, display: { ...data.display, pinned: !data.display.pinned } }),
          code.display.pinned ? 'list.unpinned' : 'list.pinnedDone',
        ),
      advance: (code) => write(code, (data) => ({ ...data, counter: data.counter + 1 }), 'list.advanced'),
      trash: (code) =>
        write(code, (data) => ({ ...data, display: { ...data.display, trashed: true } }), 'list.trashed'),
      restore: (code) =>
        write(code, (data) => ({ ...data, display: { ...data.display, trashed: false } }), 'list.restored'),
      deleteForever: (code) => context().confirmDeleteForever(code),
      moveUp: (code) => {
        const { up } = neighboursOf(context().entries, code);
        if (up) move(code.id, up.id, 'before');
      },
      moveDown: (code) => {
        const { down } = neighboursOf(context().entries, code);
        if (down) move(code.id, down.id, 'after');
      },
    },
    move,
  };
}

/** The command map of the page, stable for its life, over the latest `context`. */
export function useCommands(context: CommandContext): Commands {
  const latest = useRef(context);
  useLayoutEffect(() => {
    latest.current = context;
  });
  // The commands read the ref when they run (from events), never during a render.
  // eslint-disable-next-line react-hooks/refs
  return useMemo(() => createCommands(() => latest.current), []);
}

type KeyPress = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>;

/** What the page's keys may do at the moment of a key press. */
export interface KeyState {
  searchShown: boolean;
  editable: boolean;
  /** A search or a chip narrows the list. */
  filtered: boolean;
}

/** The page-wide keys: `/` focuses the search, A adds a code, Esc clears the search and the chips. */
export function pageKeyCommand(key: KeyPress, state: KeyState): PageCommand | undefined {
  if (key.ctrlKey || key.metaKey || key.altKey) return undefined;
  if (key.key === '/' && state.searchShown) return 'focusSearch';
  if ((key.key === 'a' || key.key === 'A') && state.editable && !key.shiftKey) return 'add';
  if (key.key === 'Escape' && state.filtered) return 'clearSearch';
  return undefined;
}

/** Runs the page-wide keys typed on the page itself (not in a field, a dialog or a menu). */
export function usePageKeys(pageRef: RefObject<HTMLElement | null>, commands: Commands, state: KeyState): void {
  const { searchShown, editable, filtered } = state;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      // A dialog or a menu is a portal outside the page.
      if (!target || isTextField(target)) return;
      if (target !== document.body && !pageRef.current?.contains(target)) return;
      const command = pageKeyCommand(event, { searchShown, editable, filtered });
      if (!command) return;
      event.preventDefault();
      commands.page[command]();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [pageRef, commands, searchShown, editable, filtered]);
}

function isTextField(element: HTMLElement): boolean {
  const tag = element.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || element.isContentEditable;
}
