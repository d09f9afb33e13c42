/** @jest-environment node */
import {
  allSelected,
  emptySelection,
  prune,
  selectAll,
  selectedFiles,
  selectRange,
  setMany,
  someSelected,
  toggle,
} from './selection-model.ts';

const ids = (selection: { ids: ReadonlySet<number> }) => [...selection.ids].sort((a, b) => a - b);
const order = [10, 20, 30, 40, 50, 60];

test('toggle selects and deselects, and sets the anchor; the input is left alone', () => {
  const one = toggle(emptySelection, 30);
  expect([ids(one), one.anchor]).toEqual([[30], 30]);
  const two = toggle(one, 50);
  expect([ids(two), two.anchor]).toEqual([[30, 50], 50]);
  const back = toggle(two, 30);
  expect([ids(back), back.anchor]).toEqual([[50], 30]);
  expect(ids(two)).toEqual([30, 50]);
  expect(ids(emptySelection)).toEqual([]);
});

test('a range adds everything between the anchor and the target, in the grid order, either way', () => {
  const down = selectRange(toggle(emptySelection, 20), order, 50);
  expect([ids(down), down.anchor]).toEqual([[20, 30, 40, 50], 20]);
  // Extending again from the same anchor, upwards, keeps what was selected.
  const up = selectRange(down, order, 10);
  expect(ids(up)).toEqual([10, 20, 30, 40, 50]);
  // Without an anchor (or one that left the grid) a range is a toggle.
  expect(ids(selectRange(emptySelection, order, 40))).toEqual([40]);
  expect(ids(selectRange({ ids: new Set([99]), anchor: 99 }, order, 40))).toEqual([40, 99]);
});

test('a day at once, all, and the header state', () => {
  const day = [30, 40, 50];
  const some = toggle(emptySelection, 40);
  expect([allSelected(some, day), someSelected(some, day)]).toEqual([false, true]);
  const whole = setMany(some, day, true);
  expect([ids(whole), allSelected(whole, day), someSelected(whole, day)]).toEqual([[30, 40, 50], true, false]);
  expect(ids(setMany(toggle(whole, 10), day, false))).toEqual([10]);
  expect(ids(selectAll(order))).toEqual(order);
  expect(allSelected(emptySelection, [])).toBe(false);
});

test('prune drops the files that left, and returns the same selection when none did', () => {
  const selection = selectAll(order);
  expect(prune(selection, new Set(order))).toBe(selection);
  const pruned = prune(selection, new Set([20, 30]));
  expect([ids(pruned), pruned.anchor]).toEqual([[20, 30], undefined]);
});

test('the files of a select-all of 20,000: every one, in the files’ order, each id read once', () => {
  const files = Array.from({ length: 20_000 }, (_, i) => ({ id: 20_000 - i, title: `IMG_${i}.jpg` }));
  const selection = selectAll(files.map((file) => file.id));
  // The ids as a list whose every read is counted: a lookup in it per file would read it 20,000 times over.
  let reads = 0;
  const list = [...selection.ids];
  const counted = new Proxy(list, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const picked = selectedFiles(files, counted);
  expect(picked).toHaveLength(20_000);
  expect(picked.every((file, i) => file === files[i])).toBe(true);
  expect(reads).toBeLessThanOrEqual(20_000);
  // Some of them, and an id with no file: those of the files, in the files' order.
  expect(selectedFiles(files, [5, 19_999, 123_456]).map((file) => file.id)).toEqual([19_999, 5]);
});
