// A diff pulled page by page from a cursor, as the server's diff endpoints answer it: rows with an
// `updatedAt` (µs) newer than `sinceTime`, at most `limit` a page, and the server's `timestamp` (µs).
// Generic: the authenticator's entities use it, and photos' collections and files diffs follow the same
// rule. See: [Note: Paged diff]
//
// [Note: Paged diff]
// Pages of `limit` rows from the cursor, until an empty page. The next cursor is the largest updatedAt of
// the page, except after a full page that ends inside a run of equal updatedAt: then it is one less, so
// that rows sharing that time across the page boundary are fetched again rather than skipped (the server
// compares with a strict `>`). Every answer also measures the clock: timeOffsetMs = server − local at the
// middle of the request (docs/protocol.md#authenticator-data, the correct sign).
//
// The server is not trusted to end the pull: a page with rows that does not move the cursor forward would be
// asked for again for ever (a well-formed server only sends rows newer than `sinceTime`, so every page with
// rows moves it), and a run stops after `maxPages` pages. Both reject with PagedDiffError; the pages already
// applied stay applied, so the next run goes on from there.
import { log } from '@ente/shared/log.ts';

/** Pages asked for in one run at most, unless the caller says otherwise. */
export const MAX_DIFF_PAGES = 10_000;

/** A diff that would never end: a page that left the cursor in place, or more pages than a run allows. */
export class PagedDiffError extends Error {
  constructor(readonly reason: 'cursorStuck' | 'tooManyPages') {
    super(
      reason === 'cursorStuck'
        ? 'The server sent a diff page that does not move the cursor forward'
        : 'The server sent more diff pages than one pull allows',
    );
    this.name = 'PagedDiffError';
  }
}

/** One answer of a diff endpoint. */
export interface DiffAnswer<Row> {
  diff: readonly Row[];
  /** The server's time (µs). */
  timestamp: number;
  /** The server said no page follows: this one is applied and the pull ends without asking again. */
  last?: boolean;
}

/** One page as the puller hands it on: its rows and where the next page starts. */
export interface PulledPage<Row> {
  rows: readonly Row[];
  /** The `sinceTime` this page was asked from. */
  from: number;
  /** The `sinceTime` of the next page. */
  cursor: number;
  /** The server's time of this answer (µs). */
  timestamp: number;
  /** server − local (ms), measured at this answer. */
  timeOffsetMs: number;
}

export interface PullOptions<Row extends { updatedAt: number }> {
  cursor: number;
  limit: number;
  fetchPage: (sinceTime: number, limit: number) => Promise<DiffAnswer<Row>>;
  /** Applies (and saves) a page before the next is fetched; the last, empty page comes too (its clock). */
  applyPage: (page: PulledPage<Row>) => Promise<void>;
  /** Local time in ms (Date.now). */
  now?: () => number;
  /** Pages one run may ask for (MAX_DIFF_PAGES). */
  maxPages?: number;
}

/**
 * Pulls every page since `cursor`; a failure rejects, and the pages already applied stay applied. A page
 * with rows that would leave the cursor in place (or move it back), unless it is the `last`, rejects before
 * it is applied; rows not newer than the page's `sinceTime` are never applied. See: [Note: Paged diff]
 */
export async function pullPages<Row extends { updatedAt: number }>(options: PullOptions<Row>): Promise<void> {
  const { limit, fetchPage, applyPage, now = Date.now, maxPages = MAX_DIFF_PAGES } = options;
  let cursor = options.cursor;
  for (let pages = 0; ; pages++) {
    if (pages >= maxPages) throw new PagedDiffError('tooManyPages');
    const sent = now();
    const answer = await fetchPage(cursor, limit);
    const received = now();
    const next = nextCursor(cursor, answer.diff, limit);
    const end = answer.diff.length === 0 || answer.last === true;
    if (!end && next <= cursor) throw new PagedDiffError('cursorStuck');
    const timeOffsetMs = Math.round(answer.timestamp / 1000 - (sent + received) / 2);
    // A row not newer than the cursor is stale (a well-formed server never sends one): applying it could put an
    // older state over a newer one, on a page that ends the pull as on any other.
    const rows = answer.diff.filter((row) => row.updatedAt > cursor);
    await applyPage({ rows, from: cursor, cursor: next, timestamp: answer.timestamp, timeOffsetMs });
    cursor = next;
    if (end) return;
  }
}

/**
 * The cursor after a page: its largest updatedAt, or one less after a full page whose last updatedAt
 * may continue on the next page. See: [Note: Paged diff]
 */
export function nextCursor(sinceTime: number, diff: readonly { updatedAt: number }[], limit: number): number {
  if (diff.length === 0) return sinceTime;
  let max = sinceTime;
  let min = Number.POSITIVE_INFINITY;
  for (const { updatedAt } of diff) {
    if (updatedAt > max) max = updatedAt;
    if (updatedAt < min) min = updatedAt;
  }
  if (diff.length >= limit && min < max) return max - 1;
  if (diff.length >= limit)
    log.warn(`A whole diff page shares updatedAt ${String(max)}; later rows with it may be missed`);
  return max;
}
