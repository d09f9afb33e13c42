// The "Play on a screen" dialog of a page, fetched with import() the first time it opens (nothing of it is in a
// route's first load). The page says which album it is for (by id: the album shown is always the library's
// latest); each opening starts afresh.
import { lazy, Suspense, useState } from 'react';

import type { Album } from '../../library/types.ts';
import { useAlbumTitle } from '../albums/album-title.ts';
import type { CastActions } from './CastDialog.tsx';

const CastDialog = lazy(() => import('./CastDialog.tsx').then((m) => ({ default: m.CastDialog })));

export interface AlbumCastProps {
  /** The album the dialog is open for, if any. */
  albumID: number | undefined;
  albums: readonly Album[];
  castPageURL: string;
  actions: (album: Album) => CastActions;
  onClose: () => void;
}

export function AlbumCast({ albumID, albums, castPageURL, actions, onClose }: AlbumCastProps) {
  const title = useAlbumTitle();
  const [shown, setShown] = useState<{ albumID: number; key: number; open: boolean }>();
  // Each opening mounts a new dialog (React's "adjust state when a prop changes"); the last stays while closing.
  const open = albumID !== undefined;
  if (open && (albumID !== shown?.albumID || !shown.open)) setShown({ albumID, key: (shown?.key ?? 0) + 1, open });
  else if (!open && shown?.open) setShown({ ...shown, open });
  const album = shown && albums.find((each) => each.id === shown.albumID);
  if (!shown || !album) return null;
  return (
    <Suspense fallback={null}>
      <CastDialog
        key={shown.key}
        open={open}
        albumName={title(album)}
        castPageURL={castPageURL}
        actions={actions(album)}
        onClose={onClose}
      />
    </Suspense>
  );
}
