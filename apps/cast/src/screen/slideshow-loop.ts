// The slideshow's loop, apart from React and the network so that it can be tested: the album is read again at the
// start of each round, the next slide is loaded (fetched, decrypted, decoded) while the current one is shown, and
// it replaces the current one only once ready, so no frame is blank. The slide on screen is not loaded again when
// it comes next (an album of one photo). A file that will not load is skipped; a 401 ends the loop at once
// (revoked), and so do `maxFailures` failures in a row.
import { advance, current, joinAlbum, type Deck } from './deck.ts';

export class CastEndedError extends Error {
  constructor(readonly reason: 'revoked' | 'failed') {
    super(`cast ended: ${reason}`);
    this.name = 'CastEndedError';
  }
}

export type SlideshowDeps<Slide> = {
  /** Reads the album's diff again (new and removed files); a 401 throws CastEndedError('revoked'). */
  refresh: () => Promise<void>;
  /** The album's slideshow files now. */
  ids: () => readonly number[];
  /** A slide ready to show at once; throws when the file cannot be shown. */
  load: (id: number, signal: AbortSignal) => Promise<Slide>;
  /** Puts a loaded slide on screen (`null`: the album has nothing to show yet). */
  show: (slide: Slide | null) => void;
  /** Resolves after `ms` (or rejects when `signal` aborts). */
  wait: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
  intervalMs: number;
  maxFailures: number;
  signal: AbortSignal;
};

export async function runSlideshow<Slide>(deps: SlideshowDeps<Slide>): Promise<never> {
  const { signal } = deps;
  let failures = 0;
  const failed = (error: unknown) => {
    if (signal.aborted) throw signal.reason;
    if (error instanceof CastEndedError) throw error;
    failures += 1;
    if (failures >= deps.maxFailures) throw new CastEndedError('failed');
  };
  const refresh = async () => {
    try {
      await deps.refresh();
      failures = 0;
    } catch (error) {
      failed(error);
    }
  };

  let deck: Deck = { order: [], position: 0 };
  // Whether the deck's current file was already shown (or skipped), and whether any slide is on screen.
  let visited = false;
  let showing: number | undefined;
  for (;;) {
    // At a round's end (or while there is nothing yet) the album is read again first.
    if (deck.position + 1 >= deck.order.length) {
      await refresh();
      deck = joinAlbum(deck, deps.ids(), deps.random);
    }
    const nextDeck = visited ? advance(deck, deps.random) : deck;
    const id = current(nextDeck);
    if (id === undefined) {
      deps.show(null);
      showing = undefined;
      visited = false;
      await deps.wait(deps.intervalMs, signal);
      continue;
    }
    // The pause runs while the next slide loads: a slide shows for the interval, plus any load past it.
    const pause = showing !== undefined ? deps.wait(deps.intervalMs, signal) : Promise.resolve();
    deck = nextDeck;
    visited = true;
    if (id === showing) {
      // Already on screen (an album of one photo): it stays, decoded, for another interval.
      await pause;
      continue;
    }
    let slide: Slide;
    try {
      slide = await deps.load(id, signal);
    } catch (error) {
      // Skipped: the deck has moved past it, and the pause already running still counts.
      await pause.catch(() => undefined);
      failed(error);
      continue;
    }
    await pause;
    failures = 0;
    deps.show(slide);
    showing = id;
  }
}
