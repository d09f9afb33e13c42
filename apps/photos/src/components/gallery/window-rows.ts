// The gallery grid's virtualizing, against the window's scroll: which rows are on screen (and `overscan` more on
// each side), where each starts, and scrolling one into view. Every row's height is known from the grid's model and
// width (a day's header, a row of square cells), so nothing is measured: the rows' starts are one running sum, and
// a scroll finds the rows on screen by binary search. Ours rather than a virtualizing library, because that is all
// the grid asks of one and such a library was 9 KiB gzip of a public album's first load.
import { useEffect, useMemo, useState } from 'react';

/** A row to render: its index, its key, and its place in the grid (px from the grid's top). */
export interface WindowRow {
  index: number;
  key: string | number;
  start: number;
  size: number;
}

export interface WindowRowsOptions {
  count: number;
  /** A row's height; keep it the same function while the heights do not change. */
  sizeOf: (index: number) => number;
  keyOf: (index: number) => string | number;
  /** Rows rendered beyond each edge of the window. */
  overscan: number;
  /** Where the grid starts in the page (px below the document's top). */
  scrollMargin: number;
  /** A row rendered wherever the window is (the focused one), or -1. */
  keep: number;
}

export interface WindowRows {
  rows: WindowRow[];
  /** The height of all the rows. */
  totalSize: number;
  /** Scrolls the window as little as needed for the row to be in view. */
  scrollToIndex: (index: number) => void;
}

export function useWindowRows({ count, sizeOf, keyOf, overscan, scrollMargin, keep }: WindowRowsOptions): WindowRows {
  const starts = useMemo(() => {
    const sums = new Float64Array(count + 1);
    for (let index = 0; index < count; index++) sums[index + 1] = (sums[index] ?? 0) + sizeOf(index);
    return sums;
  }, [count, sizeOf]);
  const view = useWindowView();

  const top = view.y - scrollMargin;
  const first = Math.max(0, firstEndingAfter(starts, top) - overscan);
  const last = Math.min(count - 1, firstEndingAfter(starts, top + view.height) + overscan);
  const indexes: number[] = [];
  for (let index = first; index <= last; index++) indexes.push(index);
  if (keep >= 0 && keep < count && (keep < first || keep > last))
    indexes.splice(keep < first ? 0 : indexes.length, 0, keep);

  const startOf = (index: number) => starts[index] ?? 0;
  return {
    rows: indexes.map((index) => ({
      index,
      key: keyOf(index),
      start: startOf(index),
      size: startOf(index + 1) - startOf(index),
    })),
    totalSize: startOf(count),
    scrollToIndex: (index) => {
      if (index < 0 || index >= count) return;
      const start = startOf(index) + scrollMargin;
      const end = startOf(index + 1) + scrollMargin;
      if (end > window.scrollY + window.innerHeight) window.scrollTo({ top: end - window.innerHeight });
      else if (start < window.scrollY) window.scrollTo({ top: start });
    },
  };
}

/** The first row whose end is below `y` (px from the grid's top); `starts` is the running sum of the heights. */
function firstEndingAfter(starts: Float64Array, y: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((starts[middle + 1] ?? 0) > y) high = middle;
    else low = middle + 1;
  }
  return Math.max(0, low);
}

interface WindowView {
  y: number;
  height: number;
}

/** The window's scroll position and height, followed (a new value only when one of them changed). */
function useWindowView(): WindowView {
  const [view, setView] = useState<WindowView>(() =>
    typeof window === 'undefined' ? { y: 0, height: 0 } : { y: window.scrollY, height: window.innerHeight },
  );
  useEffect(() => {
    const read = () =>
      setView((current) =>
        current.y === window.scrollY && current.height === window.innerHeight
          ? current
          : { y: window.scrollY, height: window.innerHeight },
      );
    read();
    window.addEventListener('scroll', read, { passive: true });
    window.addEventListener('resize', read);
    return () => {
      window.removeEventListener('scroll', read);
      window.removeEventListener('resize', read);
    };
  }, []);
  return view;
}
