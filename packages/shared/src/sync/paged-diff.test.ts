/**
 * @jest-environment node
 */
import { nextCursor, pullPages, type PulledPage, type PullOptions } from './paged-diff.ts';

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

/** Runs pullPages, recording the cursor of each page applied. */
function pullRecording(options: Omit<PullOptions<{ id: string; updatedAt: number }>, 'applyPage'>) {
  const applied: number[] = [];
  const pull = pullPages({
    ...options,
    applyPage: ({ cursor }) => {
      applied.push(cursor);
      return Promise.resolve();
    },
  });
  return { pull, applied };
}

test('a page with rows that leaves the cursor in place fails the pull before it is applied', async () => {
  let asked = 0;
  const { pull, applied } = pullRecording({
    cursor: 10,
    limit: 2,
    // A server answering rows no newer than sinceTime: asking again would get the same page for ever.
    fetchPage: (sinceTime) => {
      asked++;
      return Promise.resolve({ diff: sinceTime === 10 ? rows(12, 14) : rows(3, 14), timestamp: 0 });
    },
  });
  await expect(pull).rejects.toMatchObject({ reason: 'cursorStuck' });
  expect(applied).toEqual([13]);
  expect(asked).toBe(2);
});

test('a page marked last is applied and ends the pull, even when it does not move the cursor', async () => {
  const asked: number[] = [];
  const { pull, applied } = pullRecording({
    cursor: 10,
    limit: 5,
    fetchPage: (sinceTime) => {
      asked.push(sinceTime);
      return Promise.resolve({ diff: rows(12), timestamp: 0, last: sinceTime !== 10 });
    },
  });
  await pull;
  expect(asked).toEqual([10, 12]);
  expect(applied).toEqual([12, 12]);
});

test('rows not newer than the cursor are dropped before a page is applied, the last page’s too', async () => {
  const applied: string[][] = [];
  await pullPages({
    cursor: 10,
    limit: 5,
    // A hostile or broken server sending stale rows: on a page that goes on, and on the last one.
    fetchPage: (sinceTime) =>
      Promise.resolve(
        sinceTime === 10
          ? { diff: [...rows(4, 10), { id: 'new', updatedAt: 12 }], timestamp: 0 }
          : {
              diff: [
                { id: 'old', updatedAt: 3 },
                { id: 'same', updatedAt: 12 },
              ],
              timestamp: 0,
              last: true,
            },
      ),
    applyPage: (page) => {
      applied.push(page.rows.map((row) => row.id));
      return Promise.resolve();
    },
  });
  expect(applied).toEqual([['new'], []]);
});

test('a run stops after maxPages pages, those applied kept', async () => {
  let time = 0;
  const { pull, applied } = pullRecording({
    cursor: 0,
    limit: 1,
    maxPages: 3,
    // Each page one newer row: a server that never ends the diff.
    fetchPage: () => Promise.resolve({ diff: rows(++time), timestamp: 0 }),
  });
  await expect(pull).rejects.toMatchObject({ reason: 'tooManyPages' });
  expect(applied).toEqual([1, 2, 3]);
});

test('the next cursor', () => {
  expect(nextCursor(0, rows(5, 9), 2)).toBe(8);
  expect(nextCursor(3, rows(9), 2)).toBe(9);
  expect(nextCursor(3, [], 2)).toBe(3);
});
