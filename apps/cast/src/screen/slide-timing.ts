// How long each slide shows: 10 s, or what the cast page's address asks with `?slideSeconds=` (2 to 3600; anything
// else is ignored), so that a screen on a wall can go slower and the benchmark faster. It changes only what this
// screen shows, so the address may carry it in production too.

export const SLIDE_MS = 10_000;
/** The cross-fade from one slide to the next (none under reduced motion, none for the first slide). */
export const FADE_MS = 1000;
const MIN_SLIDE_SECONDS = 2;
const MAX_SLIDE_SECONDS = 3600;

/** The slide interval that the page's query string (`location.search`) asks for, or the default. */
export function slideIntervalMs(search: string): number {
  const asked = new URLSearchParams(search).get('slideSeconds');
  if (asked === null || !/^\d+(\.\d+)?$/.test(asked)) return SLIDE_MS;
  const seconds = Number(asked);
  return seconds >= MIN_SLIDE_SECONDS && seconds <= MAX_SLIDE_SECONDS ? Math.round(seconds * 1000) : SLIDE_MS;
}
