// The grid's thumbnail loader hook (components/gallery/Thumbnail.tsx `thumbnailFromHook`): the object URL of a
// file's decrypted thumbnail once media.ts has it, at once when it is already kept; `failed` when it could not
// be fetched or opened (the cell keeps its placeholder). A cell that unmounts first ignores the answer.
import { useEffect, useState } from 'react';

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
    let live = true;
    thumbnailURL({ id, key, thumbnailHeader }).then(
      (url) => live && setLoaded({ identity, state: { url } }),
      () => live && setLoaded({ identity, state: { failed: true } }),
    );
    return () => {
      live = false;
    };
  }, [id, key, thumbnailHeader, identity, kept]);

  if (kept) return { url: kept };
  return loaded?.identity === identity ? loaded.state : {};
}
