// Batches of the crypto API: each item opened in turn, one that fails answering null instead of failing the
// batch (a corrupt row must not hide the others).

/** `open` of each item, in order; `null` for each item whose `open` throws. */
export async function eachOrNull<T, R>(items: readonly T[], open: (item: T) => Promise<R>): Promise<(R | null)[]> {
  const results: (R | null)[] = [];
  for (const item of items) {
    try {
      results.push(await open(item));
    } catch {
      results.push(null);
    }
  }
  return results;
}
