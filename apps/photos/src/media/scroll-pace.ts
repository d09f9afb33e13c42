// Whether the window is scrolling too fast for thumbnails to be worth fetching from the server (a fling, a flicked
// wheel, a held Page Down, a dragged scrollbar). Above HOLD_SCREENS_PER_SECOND a cell is on screen for less than half
// a second, about the time its thumbnail's fetch takes on a slow network, and a person cannot take in a picture that
// appears for a moment; fetching it still costs the server's two requests, the network, the `thumbs` cache's write and
// the decryption, on the cores the scroll's own frames need. So media.ts answers such a grid only from what is
// already kept or in the cache while `fetchesHeld()`, and the cells ask again once the pace is back under it or the
// scroll has been still for QUIET_MS (`whenFetchesResume`). One bound, not a lower one to resume under: a steady
// scroll between two bounds that one late frame pushed over the upper would stay held to its end. Speeds are in window
// heights per second, so that a phone and a desktop page hold at the same feel.
// See docs/decisions.md, what keeps the gallery's scroll smooth.

export const HOLD_SCREENS_PER_SECOND = 2;
/** A scroll still this long has stopped (the pace then lets go); an event after such a pause starts a new movement. */
export const QUIET_MS = 150;
/**
 * The pace is the distance over the last PACE_WINDOW_MS of events, judged once they span at least PACE_MIN_SPAN_MS: a
 * frame's own distance over its own time varies by half with when in its vsync each scroll event runs, enough to hold
 * a steady scroll under the hold pace.
 */
export const PACE_WINDOW_MS = 150;
export const PACE_MIN_SPAN_MS = 50;

/** The pace of one scrolling element, from its positions in time. */
export class ScrollPace {
  private holding = false;
  /** The positions of the movement's recent events, oldest first (one at or before the window's start). */
  private samples: { y: number; at: number }[] = [];
  private quiet: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();

  get held(): boolean {
    return this.holding;
  }

  /** A scroll event: the position `y` (px) at `at` (ms), in a viewport `height` px high. */
  scrolled(y: number, at: number, height: number): void {
    const samples = this.samples;
    const previous = samples.at(-1);
    if (previous && at - previous.at > QUIET_MS) samples.length = 0;
    samples.push({ y, at });
    while (samples.length > 2 && (samples[1]?.at ?? at) <= at - PACE_WINDOW_MS) samples.shift();
    const oldest = samples[0] ?? { y, at };
    // Until the events span enough time there is no pace: a single jump (Page Down, a link to a day) never holds.
    const span = at - oldest.at;
    if (span >= PACE_MIN_SPAN_MS) {
      const screensPerSecond = (Math.abs(y - oldest.y) / span / Math.max(height, 1)) * 1000;
      if (screensPerSecond > HOLD_SCREENS_PER_SECOND) this.holding = true;
      else this.resume();
    }
    if (!this.holding) return;
    if (this.quiet !== undefined) clearTimeout(this.quiet);
    this.quiet = setTimeout(() => this.resume(), QUIET_MS);
  }

  /**
   * Calls `listener` once the pace lets go of the fetches (in a microtask when it holds none now); the function
   * returned unsubscribes.
   */
  whenResumed(listener: () => void): () => void {
    const once = () => {
      if (this.listeners.delete(once)) listener();
    };
    this.listeners.add(once);
    if (!this.holding) queueMicrotask(once);
    return () => void this.listeners.delete(once);
  }

  private resume(): void {
    if (this.quiet !== undefined) clearTimeout(this.quiet);
    this.quiet = undefined;
    if (!this.holding) return;
    this.holding = false;
    for (const listener of [...this.listeners]) listener();
  }
}

let windowPace: ScrollPace | undefined;

/** The window's pace, followed from the first time it is asked for (outside a browser, one that never holds). */
function paceOfWindow(): ScrollPace {
  if (!windowPace) {
    const pace = new ScrollPace();
    if (typeof window !== 'undefined') {
      window.addEventListener('scroll', () => pace.scrolled(window.scrollY, performance.now(), window.innerHeight), {
        passive: true,
      });
    }
    windowPace = pace;
  }
  return windowPace;
}

/** Whether thumbnails not already in the browser should wait: the window scrolls faster than they can be seen. */
export function fetchesHeld(): boolean {
  return paceOfWindow().held;
}

/** Calls `listener` once fetches are no longer held (see ScrollPace.whenResumed); returns the unsubscribe. */
export function whenFetchesResume(listener: () => void): () => void {
  return paceOfWindow().whenResumed(listener);
}
