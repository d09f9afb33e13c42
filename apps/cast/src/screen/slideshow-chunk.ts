// The slideshow's code (Slideshow.tsx and what it imports) is not in the cast page's first load, which only shows a
// code: it is fetched as soon as a sender's payload arrives (use-pairing.ts), while the payload is being opened.
import type { Slideshow } from './Slideshow.tsx';

let chunk: Promise<{ Slideshow: typeof Slideshow }> | undefined;

export function loadSlideshow(): Promise<{ Slideshow: typeof Slideshow }> {
  chunk ??= import('./Slideshow.tsx');
  // A failed fetch (offline) may succeed the next time.
  chunk.catch(() => (chunk = undefined));
  return chunk;
}
