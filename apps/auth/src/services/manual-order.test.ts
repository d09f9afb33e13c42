import { fakeCode } from '../components/list/testing/fake-vault.ts';
import { moveCode, positionChanges } from './manual-order.ts';
import type { Code } from './types.ts';

const ids = (codes: readonly Code[] | undefined) => codes?.map((code) => code.display.note);

function codes(notes: string, positions?: number[], pinned = 0): Code[] {
  return notes
    .split(' ')
    .map((note, i) => fakeCode({ display: { note, position: positions?.[i] ?? 0, pinned: i < pinned } }));
}

test('moves a code before or after another', () => {
  const list = codes('a b c d');
  expect(ids(moveCode(list, list[0]!.id, list[2]!.id, 'after'))).toEqual(['b', 'c', 'a', 'd']);
  expect(ids(moveCode(list, list[3]!.id, list[1]!.id, 'before'))).toEqual(['a', 'd', 'b', 'c']);
  expect(moveCode(list, list[0]!.id, list[0]!.id, 'after')).toBeUndefined();
  expect(moveCode(list, 'nope', list[0]!.id, 'after')).toBeUndefined();
});

test('does not move a code across the pinned boundary', () => {
  const list = codes('a b c', undefined, 1);
  expect(moveCode(list, list[1]!.id, list[0]!.id, 'before')).toBeUndefined();
});

test('positions become the indexes; only changed codes are written', () => {
  const list = codes('a b c d', [0, 1, 2, 3]);
  const moved = moveCode(list, list[0]!.id, list[1]!.id, 'after')!;
  expect(positionChanges(moved).map(({ code, position }) => [code.display.note, position])).toEqual([
    ['b', 0],
    ['a', 1],
  ]);
  // All at 0 (never ordered by hand): the first move numbers them all, except the first.
  const fresh = codes('a b c');
  expect(positionChanges(moveCode(fresh, fresh[2]!.id, fresh[0]!.id, 'before')!)).toHaveLength(2);
});
