import { codeData } from '../../services/code-edits.ts';
import type { Code, CodeData } from '../../services/types.ts';
import { filterEntries, orderCodes } from '../list/list-model.ts';
import { fakeCode } from '../list/testing/fake-vault.ts';
import { createCommands, pageKeyCommand, type CommandContext, type KeyState } from './commands.ts';

function setUp(codes: Code[], fields: Partial<CommandContext> = {}) {
  const ordered = orderCodes(codes, 'manual');
  const writes: { code: Code; data: CodeData; done?: string }[] = [];
  const context: CommandContext = {
    openDialog: jest.fn(),
    focusSearch: jest.fn(),
    clearSearch: jest.fn(),
    copy: jest.fn(),
    write: (code, change, done) => {
      writes.push({ code, data: change(codeData(code)), done });
      return Promise.resolve();
    },
    confirmDeleteForever: jest.fn(),
    writePositions: jest.fn(),
    ordered,
    entries: filterEntries(ordered, [], [], { view: 'codes', query: '', tags: [], sort: 'manual' }),
    reorderable: true,
    announce: jest.fn(),
    say: (key) => `said ${key}`,
    sayMoved: (code, position, total) => `${code.issuer} ${position}/${total}`,
    ...fields,
  };
  return { context, writes, commands: createCommands(() => context) };
}

test('the dialogs open through the one dialog state', () => {
  const code = fakeCode();
  const { context, commands } = setUp([code]);
  commands.page.add();
  commands.code.edit(code);
  commands.code.showQR(code);
  commands.code.share(code);
  commands.page.import();
  commands.page.export();
  commands.page.manageTags();
  expect(jest.mocked(context.openDialog).mock.calls.map(([dialog]) => dialog)).toEqual([
    { kind: 'editor', target: { kind: 'add' } },
    { kind: 'editor', target: { kind: 'edit', code } },
    { kind: 'showQR', code },
    { kind: 'share', code },
    { kind: 'import' },
    { kind: 'export' },
    { kind: 'tags' },
  ]);
});

test('pin, advance, trash and restore write one change each and say so', () => {
  const pinned = fakeCode({ type: 'hotp', counter: 4, display: { pinned: true } });
  const { writes, commands } = setUp([pinned]);
  commands.code.pin(pinned);
  commands.code.advance(pinned);
  commands.code.trash(pinned);
  commands.code.restore({ ...pinned, display: { ...pinned.display, trashed: true } });
  expect(writes.map(({ data, done }) => [data.display.pinned, data.counter, data.display.trashed, done])).toEqual([
    [false, 4, false, 'said list.unpinned'],
    [true, 5, false, 'said list.advanced'],
    [true, 4, true, 'said list.trashed'],
    [true, 4, false, 'said list.restored'],
  ]);
  const unpinned = fakeCode();
  commands.code.pin(unpinned);
  expect(writes.at(-1)).toMatchObject({ data: { display: { pinned: true } }, done: 'said list.pinnedDone' });
});

test('copy, copy next and delete forever go to their handlers', () => {
  const code = fakeCode();
  const { context, commands } = setUp([code]);
  commands.code.copy(code);
  commands.code.copyNext(code);
  commands.code.deleteForever(code);
  expect(jest.mocked(context.copy).mock.calls).toEqual([
    [code, 'current'],
    [code, 'next'],
  ]);
  expect(context.confirmDeleteForever).toHaveBeenCalledWith(code);
});

test('move up and down swap with a neighbour, write the positions and announce the place', () => {
  const [a, b, c] = ['A', 'B', 'C'].map((issuer, position) => fakeCode({ issuer, display: { position } }));
  const { context, commands } = setUp([a!, b!, c!]);
  commands.code.moveDown(a!);
  expect(
    jest.mocked(context.writePositions).mock.calls[0]?.[0].map(({ code, position }) => [code.issuer, position]),
  ).toEqual([
    ['B', 0],
    ['A', 1],
  ]);
  expect(context.announce).toHaveBeenLastCalledWith('A 2/3');
  commands.code.moveUp(c!);
  expect(context.announce).toHaveBeenLastCalledWith('C 2/3');
  // The first code has nothing above it.
  commands.code.moveUp(a!);
  expect(context.writePositions).toHaveBeenCalledTimes(2);
});

test('no move outside manual order', () => {
  const [a, b] = ['A', 'B'].map((issuer, position) => fakeCode({ issuer, display: { position } }));
  const { context, commands } = setUp([a!, b!], { reorderable: false });
  commands.move(a!.id, b!.id, 'after');
  commands.code.moveDown(a!);
  expect(context.writePositions).not.toHaveBeenCalled();
  expect(context.announce).not.toHaveBeenCalled();
});

test('each command reads the context of the moment it runs', () => {
  const code = fakeCode();
  let context = setUp([code]).context;
  const commands = createCommands(() => context);
  const later = setUp([code]).context;
  context = later;
  commands.page.focusSearch();
  expect(later.focusSearch).toHaveBeenCalled();
});

describe('page keys', () => {
  const all: KeyState = { searchShown: true, editable: true, filtered: true };
  const press = (
    key: string,
    modifiers: Partial<Record<'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {},
  ) => ({
    key,
    shiftKey: false,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    ...modifiers,
  });

  test('/ focuses the search while it shows', () => {
    expect(pageKeyCommand(press('/'), all)).toBe('focusSearch');
    expect(pageKeyCommand(press('/'), { ...all, searchShown: false })).toBeUndefined();
  });

  test('A adds a code while editing is on, without Shift', () => {
    expect(pageKeyCommand(press('a'), all)).toBe('add');
    expect(pageKeyCommand(press('A'), all)).toBe('add');
    expect(pageKeyCommand(press('A', { shiftKey: true }), all)).toBeUndefined();
    expect(pageKeyCommand(press('a'), { ...all, editable: false })).toBeUndefined();
  });

  test('Esc clears a search or chips, and only then', () => {
    expect(pageKeyCommand(press('Escape'), all)).toBe('clearSearch');
    expect(pageKeyCommand(press('Escape'), { ...all, filtered: false })).toBeUndefined();
  });

  test('no page key with Ctrl, Meta or Alt', () => {
    for (const modifier of ['ctrlKey', 'metaKey', 'altKey'] as const) {
      expect(pageKeyCommand(press('a', { [modifier]: true }), all)).toBeUndefined();
      expect(pageKeyCommand(press('/', { [modifier]: true }), all)).toBeUndefined();
    }
  });
});
