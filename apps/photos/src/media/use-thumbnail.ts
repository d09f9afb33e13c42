// The grid's thumbnail loader hook (components/gallery/Thumbnail.tsx `thumbnailFromHook`): the object URL of a
// file's decrypted thumbnail once media.ts has it, at once when it is already kept; `failed` when it could not
// be fetched or opened (the cell keeps its placeholder). A cell that unmounts (or shows another file) first lets go of
// its request: one not yet started is dropped (request-queue.ts), so a fast scroll leaves no queue of rows gone by.
// The answers that arrive between two frames are shown together at the next one, in one transition: one render of
// their cells a frame at most, not one per thumbnail, and a scroll's own renders (rows coming into view) go first.
// A thumbnail held back while the window scrolls fast (MediaError 'held', scroll-pace.ts) keeps the placeholder and
// is asked for again when the scroll slows down or stops, if its cell is still there.
import { startTransition, useEffect, useState } from 'react';

import { MediaError } from './errors.ts';
import { keptThumbnailURL, thumbnailURL, type ThumbnailSource } from './media.ts';
import { whenFetchesResume } from './scroll-pace.ts';

export interface ThumbnailState {
  url?: string;
  failed?: boolean;
}

export function useThumbnail(file: ThumbnailSource): ThumbnailState {
  const { id, key, thumbnailHeader } = file;
  const identity = `${id}:${thumbnailHeader}`;
  const [loaded, setLoaded] = useState<{ identity: string; state: ThumbnailState } | undefined>(undefined);
  /** Bumped to ask again for a thumbnail that was held. */
  const [attempt, setAttempt] = useState(0);
  const kept = keptThumbnailURL(file);

  useEffect(() => {
    if (kept) return;
    const wanted = new AbortController();
    let stopWaiting: (() => void) | undefined;
    const show = (state: ThumbnailState) => {
      showAtNextFrame(() => {
        if (!wanted.signal.aborted) setLoaded({ identity, state });
      });
    };
    thumbnailURL({ id, key, thumbnailHeader }, wanted.signal).then(
      (url) => show({ url }),
      (error: unknown) => {
        if (wanted.signal.aborted) return;
        if (error instanceof MediaError && error.reason === 'held') {
          stopWaiting = whenFetchesResume(() => setAttempt((count) => count + 1));
        } else show({ failed: true });
      },
    );
    return () => {
      wanted.abort();
      stopWaiting?.();
    };
  }, [id, key, thumbnailHeader, identity, kept, attempt]);

  if (kept) return { url: kept };
  return loaded?.identity === identity ? loaded.state : {};
}

/** The answers waiting for the next frame. */
let arrived: (() => void)[] = [];

function showAtNextFrame(show: () => void): void {
  arrived.push(show);
  if (arrived.length > 1) return;
  const flush = () => {
    const batch = arrived;
    arrived = [];
    startTransition(() => batch.forEach((each) => each()));
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  else setTimeout(flush, 0);
}
