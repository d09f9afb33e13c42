// The slideshow for a page: nothing but this wrapper, which fetches Slideshow.tsx the first time a show starts, and
// `enterFullScreen`, which the page calls from the person's click (the Fullscreen API wants that gesture, and the
// code may still be on its way).
import { lazy, Suspense } from 'react';

import type { SlideshowProps } from './Slideshow.tsx';

export type { LoadSlide, Slide } from './slide-loader.ts';

const Slideshow = lazy(() => import('./Slideshow.tsx').then((m) => ({ default: m.Slideshow })));

/** Asks for the whole screen where the browser allows it; else the show fills the window. */
export function enterFullScreen(): void {
  const root = document.documentElement;
  if (!document.fullscreenEnabled || document.fullscreenElement || typeof root.requestFullscreen !== 'function') return;
  root.requestFullscreen().catch(() => undefined);
}

/** The show while `open` (ending it unmounts it: its slides are released). */
export function LazySlideshow({ open, ...props }: SlideshowProps & { open: boolean }) {
  return open ? (
    <Suspense fallback={null}>
      <Slideshow {...props} />
    </Suspense>
  ) : null;
}
