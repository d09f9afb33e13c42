import { act, renderHook } from '@testing-library/react';

import { useWindowRows, type WindowRowsOptions } from './window-rows.ts';

// Rows of 100 px under a grid 50 px down the page, in jsdom's window of 768 px.
const sizeOf = (index: number) => (index % 10 === 0 ? 40 : 100);
const keyOf = (index: number) => `row-${index}`;
const options = (keep = -1): WindowRowsOptions => ({ count: 1000, sizeOf, keyOf, overscan: 2, scrollMargin: 50, keep });
/** Where row `index` starts from the grid's top: each ten rows are 40 + 9 × 100 px. */
const startOf = (index: number) =>
  Math.floor(index / 10) * 940 + (index % 10 === 0 ? 0 : 40 + ((index % 10) - 1) * 100);

const scrollTo = jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
const scrolled = (y: number) =>
  act(() => {
    Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
    window.dispatchEvent(new Event('scroll'));
  });
afterEach(() => {
  Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
  scrollTo.mockClear();
});

test('the rows on screen and the overscan, each placed by the running sum of the heights', () => {
  const { result } = renderHook(() => useWindowRows(options()));
  // 0–718 px of the grid is on screen (768 px less the 50 above it): rows 0 to 7, then 2 more.
  expect(result.current.rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(result.current.rows[3]).toEqual({ index: 3, key: 'row-3', start: startOf(3), size: 100 });
  expect(result.current.totalSize).toBe(100 * 940);

  scrolled(50 + startOf(500) + 10);
  // Row 500 (a 40 px one) is at the top, 10 px of it scrolled past; the window shows to row 508 (at 740–840 px of its 768).
  expect(result.current.rows.map((row) => row.index)).toEqual([
    498, 499, 500, 501, 502, 503, 504, 505, 506, 507, 508, 509, 510,
  ]);
  expect(result.current.rows[2]?.start).toBe(startOf(500));
});

test('the kept row is rendered wherever the window is, in order', () => {
  const { result } = renderHook(() => useWindowRows(options(3)));
  scrolled(50 + startOf(500));
  expect(result.current.rows.map((row) => row.index)[0]).toBe(3);
  expect(result.current.rows.map((row) => row.index).slice(1)).toEqual([
    498, 499, 500, 501, 502, 503, 504, 505, 506, 507, 508, 509, 510,
  ]);
});

test('scrolling a row into view moves the window as little as needed, and not at all when it shows', () => {
  const { result } = renderHook(() => useWindowRows(options()));
  result.current.scrollToIndex(4);
  expect(scrollTo).not.toHaveBeenCalled();
  // Below the window: its bottom edge comes to the window's bottom.
  result.current.scrollToIndex(20);
  expect(scrollTo.mock.lastCall).toEqual([{ top: 50 + startOf(21) - 768 }]);
  // Above it: its top comes to the window's top.
  scrolled(50 + startOf(300));
  result.current.scrollToIndex(250);
  expect(scrollTo.mock.lastCall).toEqual([{ top: 50 + startOf(250) }]);
});

test('no rows: nothing to render, nothing to scroll to', () => {
  const { result } = renderHook(() => useWindowRows({ ...options(), count: 0 }));
  expect(result.current.rows).toEqual([]);
  expect(result.current.totalSize).toBe(0);
  result.current.scrollToIndex(0);
  expect(scrollTo).not.toHaveBeenCalled();
});
