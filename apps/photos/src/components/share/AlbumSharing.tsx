// The sharing dialogs of a page, fetched with import() the first time one opens: the share dialog of an album
// the person owns, and the confirmation of leaving an album shared with them. The page says which is open
// (`dialog`, by album id: the album shown is always the library's latest); the one last shown stays mounted
// while it closes, and each opening starts afresh.
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Album } from '../../library/types.ts';
import { useAlbumTitle } from '../albums/album-title.ts';
import type { AlbumSharingActions } from './share-types.ts';

const ShareDialog = lazy(() => import('./ShareDialog.tsx').then((m) => ({ default: m.ShareDialog })));
const ConfirmDialog = lazy(() => import('../ConfirmDialog.tsx').then((m) => ({ default: m.ConfirmDialog })));

export type SharingDialog = { kind: 'share' | 'leave'; albumID: number };

export interface AlbumSharingProps {
  dialog: SharingDialog | undefined;
  /** The albums the dialog's album is found in (a gone one closes it). */
  albums: readonly Album[];
  actions: AlbumSharingActions;
  onClose: () => void;
}

export function AlbumSharing({ dialog, albums, actions, onClose }: AlbumSharingProps) {
  const { t } = useTranslation('photos');
  const title = useAlbumTitle();
  const [shown, setShown] = useState<{ dialog: SharingDialog; key: number }>();
  // A newly opened dialog replaces the one shown (React's "adjust state when a prop changes").
  if (dialog !== undefined && dialog !== shown?.dialog) setShown({ dialog, key: (shown?.key ?? 0) + 1 });
  const current = dialog ?? shown?.dialog;
  const album = current && albums.find((each) => each.id === current.albumID);
  if (!current || !album) return null;
  const open = dialog !== undefined;
  const key = shown?.key ?? 0;

  return (
    <Suspense fallback={null}>
      {current.kind === 'share' ? (
        <ShareDialog
          key={key}
          open={open}
          album={album}
          linkURL={actions.linkURL(album)}
          actions={actions}
          onClose={onClose}
        />
      ) : (
        <ConfirmDialog
          key={key}
          open={open}
          title={t('share.leave_title', { name: title(album) })}
          description={t('share.leave_body')}
          confirmLabel={t('share.leave')}
          onClose={onClose}
          onConfirm={() => actions.leave(album)}
        />
      )}
    </Suspense>
  );
}
