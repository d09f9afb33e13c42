// The slideshow loop with fake album, loader and clock: the next slide is loaded before it is shown, the album is
// read again each round (new photos joined), a file that fails is skipped, a 401 or repeated failures end it.
import { expect, test } from '@jest/globals';

import { CastEndedError, runSlideshow, type SlideshowDeps } from './slideshow-loop.ts';

type Log = string[];

/** A loop whose clock is counted, stopped by `stopAfter` shows; `events` lists loads, shows, waits and reads. */
function fakeDeps(
  albums: number[][],
  options: { stopAfter: number; failing?: Set<number>; loadError?: (id: number) => Error | undefined },
) {
  const events: Log = [];
  const controller = new AbortController();
  let reads = 0;
  let shows = 0;
  let ids: number[] = [];
  const deps: SlideshowDeps<number> = {
    refresh: () => {
      ids = albums[Math.min(reads, albums.length - 1)] ?? [];
      reads += 1;
      events.push(`read ${String(reads)}`);
      return Promise.resolve();
    },
    ids: () => ids,
    load: (id) => {
      events.push(`load ${String(id)}`);
      const error = options.loadError?.(id);
      if (error) return Promise.reject(error);
      if (options.failing?.has(id)) return Promise.reject(new Error('broken'));
      return Promise.resolve(id);
    },
    show: (slide) => {
      events.push(`show ${String(slide)}`);
      shows += 1;
      if (shows >= options.stopAfter) controller.abort(new Error('stopped'));
    },
    wait: (_ms, signal) => {
      events.push('wait');
      return signal.aborted ? Promise.reject(signal.reason as Error) : Promise.resolve();
    },
    random: Math.random,
    intervalMs: 10_000,
    maxFailures: 3,
    signal: controller.signal,
  };
  return { deps, events };
}

const shown = (events: Log) => events.filter((e) => e.startsWith('show ')).map((e) => Number(e.slice(5)));

test('each slide is loaded before it is shown, the album is read each round, and every round shows each photo', async () => {
  const { deps, events } = fakeDeps([[1, 2, 3]], { stopAfter: 9 });
  await expect(runSlideshow(deps)).rejects.toThrow('stopped');
  const slides = shown(events);
  expect(slides).toHaveLength(9);
  for (let r = 0; r < 3; r++) expect(slides.slice(r * 3, r * 3 + 3).sort()).toEqual([1, 2, 3]);
  // Every show comes right after its own load and the pause: never a show of something not loaded.
  events.forEach((event, index) => {
    if (!event.startsWith('show ')) return;
    const id = event.slice(5);
    expect(
      events
        .slice(0, index)
        .reverse()
        .find((e) => e.startsWith('load ')),
    ).toBe(`load ${id}`);
  });
  // The first slide comes at once, the later ones after a pause each; the album was read once per round.
  expect(events.slice(0, 3)).toEqual(['read 1', `load ${String(slides[0])}`, `show ${String(slides[0])}`]);
  // (the ninth pause is the one the stop cut short)
  expect(events.filter((e) => e === 'wait')).toHaveLength(9);
  // (the fourth as the fourth round began, before the stop)
  expect(events.filter((e) => e.startsWith('read'))).toHaveLength(4);
});

test('an album of one photo loads it once and keeps it on screen, reading the album again each interval', async () => {
  const { deps, events } = fakeDeps([[5]], { stopAfter: 100 });
  let waits = 0;
  deps.wait = (_ms, signal) => {
    events.push('wait');
    waits += 1;
    if (waits >= 4) return Promise.reject(new Error('stopped'));
    return signal.aborted ? Promise.reject(signal.reason as Error) : Promise.resolve();
  };
  await expect(runSlideshow(deps)).rejects.toThrow('stopped');
  expect(events.filter((e) => e.startsWith('load '))).toEqual(['load 5']);
  expect(shown(events)).toEqual([5]);
  // (once at the start, then once before each of the four pauses, the last of which the stop cut short)
  expect(events.filter((e) => e.startsWith('read'))).toHaveLength(5);
});

test('a photo added to the album is shown in the round after the read that found it', async () => {
  const { deps, events } = fakeDeps(
    [
      [1, 2],
      [1, 2, 7],
    ],
    { stopAfter: 6 },
  );
  await expect(runSlideshow(deps)).rejects.toThrow('stopped');
  const slides = shown(events);
  expect(slides.slice(0, 2).sort()).toEqual([1, 2]);
  expect(slides.slice(2)).toContain(7);
});

test('a file that will not load is skipped; a 401 ends the slideshow as revoked, repeated failures as failed', async () => {
  const skipping = fakeDeps([[1, 2, 3]], { stopAfter: 4, failing: new Set([2]) });
  await expect(runSlideshow(skipping.deps)).rejects.toThrow('stopped');
  expect(shown(skipping.events)).not.toContain(2);
  expect(skipping.events).toContain('load 2');

  const revoked = fakeDeps([[1, 2, 3]], {
    stopAfter: 100,
    loadError: (id) => (id === 3 ? new CastEndedError('revoked') : undefined),
  });
  await expect(runSlideshow(revoked.deps)).rejects.toMatchObject({ reason: 'revoked' });

  const broken = fakeDeps([[1, 2, 3]], { stopAfter: 100, failing: new Set([1, 2, 3]) });
  await expect(runSlideshow(broken.deps)).rejects.toMatchObject({ reason: 'failed' });
  expect(shown(broken.events)).toEqual([]);
});

test('an empty album shows nothing yet and is read again until a photo arrives', async () => {
  const { deps, events } = fakeDeps([[], [], [4]], { stopAfter: 3 });
  await expect(runSlideshow(deps)).rejects.toThrow('stopped');
  expect(events.slice(0, 7)).toEqual(['read 1', 'show null', 'wait', 'read 2', 'show null', 'wait', 'read 3']);
  expect(shown(events).slice(-1)).toEqual([4]);
});
