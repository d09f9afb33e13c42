import type { BrokenItem, VaultItem } from '../../services/types.ts';
import {
  filterEntries,
  neighboursOf,
  orderCodes,
  planMove,
  shownView,
  splitItems,
  withPositions,
  type ListEntry,
} from './list-model.ts';
import { fakeCode } from './testing/fake-vault.ts';

const entriesOf = (...codes: ReturnType<typeof fakeCode>[]): ListEntry[] =>
  codes.map((code) => ({ kind: 'code', code }));

test('splitItems separates the codes, the trash and the unreadable entities', () => {
  const kept = fakeCode({ issuer: 'A' });
  const trashed = fakeCode({ issuer: 'B', display: { trashed: true } });
  const broken: BrokenItem = { id: 'x', updatedAt: 1, issuer: 'C', errorKey: 'entity.undecryptable' };
  const items: VaultItem[] = [
    { kind: 'code', code: kept },
    { kind: 'code', code: trashed },
    { kind: 'broken', item: broken },
  ];
  expect(splitItems(items)).toEqual({ codes: [kept], trashed: [trashed], broken: [broken] });
});

test('withPositions shows pending positions and leaves the rest as they are', () => {
  const a = fakeCode({ display: { position: 0 } });
  const b = fakeCode({ display: { position: 1 } });
  const items: VaultItem[] = [
    { kind: 'code', code: a },
    { kind: 'code', code: b },
  ];
  expect(withPositions(items, new Map())).toBe(items);
  const moved = withPositions(
    items,
    new Map([
      [a.id, 1],
      [b.id, 1],
    ]),
  );
  expect(moved[0]).toEqual({ kind: 'code', code: { ...a, display: { ...a.display, position: 1 } } });
  expect(moved[1]).toBe(items[1]);
});

test('the trash view lasts only while the trash holds something', () => {
  expect(shownView('trash', 2)).toBe('trash');
  expect(shownView('trash', 0)).toBe('codes');
  expect(shownView('codes', 0)).toBe('codes');
});

test('neighbours stay on the same side of the pinned boundary', () => {
  const pinned = fakeCode({ display: { pinned: true } });
  const first = fakeCode();
  const second = fakeCode();
  const entries = entriesOf(pinned, first, second);
  expect(neighboursOf(entries, first)).toEqual({ up: undefined, down: second });
  expect(neighboursOf(entries, second)).toEqual({ up: first, down: undefined });
  expect(neighboursOf(entries, pinned)).toEqual({ up: undefined, down: undefined });
});

test('planMove writes the positions that change and says where the code lands', () => {
  const [a, b, c] = ['A', 'B', 'C'].map((issuer, position) => fakeCode({ issuer, display: { position } }));
  const ordered = orderCodes([a!, b!, c!], 'manual');
  const entries = filterEntries(ordered, [], [], { view: 'codes', query: '', tags: [], sort: 'manual' });
  const plan = planMove(ordered, entries, a!.id, c!.id, 'after');
  expect(plan?.moved).toBe(a);
  expect(plan?.changes.map(({ code, position }) => [code.issuer, position])).toEqual([
    ['B', 0],
    ['C', 1],
    ['A', 2],
  ]);
  expect(plan).toMatchObject({ position: 3, total: 3 });
  expect(planMove(ordered, entries, b!.id, a!.id, 'after')).toBeUndefined();
  expect(planMove(ordered, entries, a!.id, a!.id, 'before')).toBeUndefined();
});
