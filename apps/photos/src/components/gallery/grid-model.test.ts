import type { GalleryFile } from '../../library/types.ts';
import { fileAt } from '../testing/files.ts';
import { dayLabel } from './day-label.ts';
import { columnsFor, daysOf, fileTime, gridModel, groupByDay, moveIndex, orderedByDay } from './grid-model.ts';

test('files are grouped by local day, newest day first, newest first within a day; the edited time wins', () => {
  const files = [
    fileAt(1, new Date(2025, 0, 1, 9)),
    fileAt(2, new Date(2025, 0, 2, 8)),
    fileAt(3, new Date(2025, 0, 1, 23, 59)),
    fileAt(4, new Date(2025, 0, 2, 8)),
    // Taken on the 1st, its date edited to the 3rd.
    fileAt(5, new Date(2025, 0, 1, 10), { editedTime: new Date(2025, 0, 3, 0, 0).getTime() * 1000 }),
  ];
  const days = groupByDay(files);
  expect(days.map((day) => [day.key, day.files.map((f) => f.id)])).toEqual([
    ['2025-01-03', [5]],
    ['2025-01-02', [4, 2]],
    ['2025-01-01', [3, 1]],
  ]);
  expect(days[1]?.start).toBe(new Date(2025, 0, 2).getTime());
  expect(fileTime(files[4] as GalleryFile)).toBe(new Date(2025, 0, 3).getTime() * 1000);
});

test('rows: a header per day, then its files cut to the column count; the order and the lookups agree', () => {
  const files = [
    ...Array.from({ length: 5 }, (_, i) => fileAt(10 + i, new Date(2025, 5, 2, 10, i))),
    ...Array.from({ length: 2 }, (_, i) => fileAt(20 + i, new Date(2025, 5, 1, 10, i))),
  ];
  const model = gridModel(groupByDay(files), 3);
  expect(model.rows.map((row) => (row.kind === 'day' ? row.day.key : row.files.map((f) => f.id)))).toEqual([
    '2025-06-02',
    [14, 13, 12],
    [11, 10],
    '2025-06-01',
    [21, 20],
  ]);
  expect(model.ordered.map((f) => f.id)).toEqual([14, 13, 12, 11, 10, 21, 20]);
  expect(Array.from(model.rowOfIndex)).toEqual([1, 1, 1, 2, 2, 4, 4]);
  expect(model.indexOfID.get(21)).toBe(5);
  // The same days at another width.
  expect(gridModel(groupByDay(files), 5).rows).toHaveLength(4);
});

test('keys move the focus along the order and between rows, keeping the column', () => {
  const files = [
    ...Array.from({ length: 5 }, (_, i) => fileAt(10 + i, new Date(2025, 5, 2, 10, i))),
    ...Array.from({ length: 2 }, (_, i) => fileAt(20 + i, new Date(2025, 5, 1, 10, i))),
  ];
  const model = gridModel(groupByDay(files), 3);
  // Index 2 is the third cell of the first row.
  expect(moveIndex(model, 2, 'right')).toBe(3);
  expect(moveIndex(model, 3, 'left')).toBe(2);
  expect(moveIndex(model, 0, 'left')).toBe(0);
  expect(moveIndex(model, 2, 'down')).toBe(4); // the shorter row's last cell
  expect(moveIndex(model, 4, 'down')).toBe(6); // across the day header
  expect(moveIndex(model, 5, 'up')).toBe(3);
  expect(moveIndex(model, 1, 'up')).toBe(1); // no row above
  expect(moveIndex(model, 0, 'pageDown', 2)).toBe(5);
  expect(moveIndex(model, 4, 'end')).toBe(6);
  expect(moveIndex(model, 4, 'home')).toBe(0);
});

test('the column count follows the width, never under three', () => {
  expect(columnsFor(320, 4)).toBe(3);
  expect(columnsFor(1024, 4)).toBe(6);
  expect(columnsFor(1920, 4)).toBe(11);
});

test('day labels: today and yesterday by the calendar, else the date, with the year when not this one', () => {
  const now = new Date(2025, 2, 31, 0, 30).getTime();
  expect(dayLabel(new Date(2025, 2, 31).getTime(), now, 'en-US')).toBe('today');
  expect(dayLabel(new Date(2025, 2, 30).getTime(), now, 'en-US')).toBe('yesterday');
  expect(dayLabel(new Date(2025, 2, 29).getTime(), now, 'en-US')).toEqual({ text: 'Sat, March 29' });
  expect(dayLabel(new Date(2024, 11, 25).getTime(), now, 'de-DE')).toEqual({ text: 'Mi., 25. Dezember 2024' });
});

test('a file of a time no Date holds (the model refuses them; this is the backstop) sorts last, labelled unknown', () => {
  const files = [fileAt(1, new Date(2025, 0, 1)), fileAt(2, new Date(2025, 0, 2), { editedTime: 1e20 })];
  const days = groupByDay(files);
  expect(days.map((day) => [day.key, day.files.map((f) => f.id)])).toEqual([
    ['2025-01-01', [1]],
    ['unknown', [2]],
  ]);
  expect(dayLabel(days[1]?.start ?? 0, Date.now(), 'en-US')).toBe('unknown');
  expect(dayLabel(NaN, Date.now(), 'en-US')).toBe('unknown');
});

test('the days and the order are made once per files array, for the grid and the viewer alike', () => {
  const files = [
    fileAt(1, new Date(2025, 0, 1, 9)),
    fileAt(2, new Date(2025, 0, 2, 8)),
    fileAt(3, new Date(2025, 0, 2, 9)),
  ];
  const days = daysOf(files);
  expect(days).toEqual(groupByDay(files));
  expect(daysOf(files)).toBe(days);
  expect(orderedByDay(files).map((f) => f.id)).toEqual([3, 2, 1]);
  expect(orderedByDay(files)).toBe(orderedByDay(files));
  // Another array, even of the same files, is grouped anew.
  const copy = [...files];
  expect(daysOf(copy)).not.toBe(days);
  expect(daysOf(copy)).toEqual(days);
});
