// The grid's thumbnail loader hook (components/gallery/Thumbnail.tsx `thumbnailFromHook`): the object URL of a
// file's decrypted thumbnail once media.ts has it, at once when it is already kept; `failed` when it could not
// be fetched or opened (the cell keeps its placeholder). A cell that unmounts (or shows another file) first lets go of
// its request: one not yet started is dropped (request-queue.ts), so a fast scroll leaves no queue of rows gone by.
// An answer is shown in a transition: a scroll's own renders (rows coming into view) go before the images'.
import { startTransition, useEffect, useState } from 'react';

import { keptThumbnailURL, thumbnailURL, type ThumbnailSource } from './media.ts';

export interface ThumbnailState {
  url?: string;
  failed?: boolean;
}

export function useThumbnail(file: ThumbnailSource): ThumbnailState {
  const { id, key, thumbnailHeader } = file;
  const identity = `${id}:${thumbnailHeader}`;
  const [loaded, setLoaded] = useState<{ identity: string; state: ThumbnailState } | undefined>(undefined);
  const kept = keptThumbnailURL(file);

  useEffect(() => {
    if (kept) return;
    const wanted = new AbortController();
    const show = (state: ThumbnailState) => {
      if (!wanted.signal.aborted) startTransition(() => setLoaded({ identity, state }));
    };
    thumbnailURL({ id, key, thumbnailHeader }, wanted.signal).then(
      (url) => show({ url }),
      () => show({ failed: true }),
    );
    return () => wanted.abort();
  }, [id, key, thumbnailHeader, identity, kept]);

  if (kept) return { url: kept };
  return loaded?.identity === identity ? loaded.state : {};
}
