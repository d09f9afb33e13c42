/**
 * @jest-environment node
 */
import { nextCursor, pullPages, type PulledPage } from './paged-diff.ts';

const rows = (...times: number[]) => times.map((updatedAt, index) => ({ id: `r${String(index)}`, updatedAt }));

test('pages from the cursor to an empty page, each applied with where it came from and where the next starts', async () => {
  const answers = [rows(5, 7, 9), rows(9, 12), rows()];
  const asked: number[] = [];
  const applied: PulledPage<{ id: string; updatedAt: number }>[] = [];
  let clock = 1_000;
  await pullPages({
    cursor: 3,
    limit: 3,
    now: () => (clock += 10),
    fetchPage: (sinceTime) => {
      asked.push(sinceTime);
      return Promise.resolve({ diff: answers.shift() ?? [], timestamp: 2_000_000 });
    },
    applyPage: (page) => {
      applied.push(page);
      return Promise.resolve();
    },
  });
  // A full page ending inside a run of equal times (9) is asked again from one below it.
  expect(asked).toEqual([3, 8, 12]);
  expect(applied.map(({ from, cursor }) => [from, cursor])).toEqual([
    [3, 8],
    [8, 12],
    [12, 12],
  ]);
  // server − local at the middle of the request: 2,000 ms − (1,010 + 1,020) / 2.
  expect(applied[0]?.timeOffsetMs).toBe(985);
});

test('a failed page rejects; the pages before it stay applied', async () => {
  const applied: number[] = [];
  const pull = pullPages({
    cursor: 0,
    limit: 2,
    fetchPage: (sinceTime) =>
      sinceTime === 0 ? Promise.resolve({ diff: rows(1, 2), timestamp: 0 }) : Promise.reject(new Error('offline')),
    applyPage: ({ cursor }) => {
      applied.push(cursor);
      return Promise.resolve();
    },
  });
  await expect(pull).rejects.toThrow('offline');
  expect(applied).toEqual([1]);
});

test('the next cursor', () => {
  expect(nextCursor(0, rows(5, 9), 2)).toBe(8);
  expect(nextCursor(3, rows(9), 2)).toBe(9);
  expect(nextCursor(3, [], 2)).toBe(3);
});
