// An album's share dialog, for its owner: the people it is shared with (SharePeople.tsx) and its public link
// (PublicLinkSection.tsx). Every change is applied as it is made, through the page's actions; the album the
// page passes is the library's latest, so the dialog shows the server's result of each change. Fetched with
// import() when first opened (AlbumSharing.tsx).
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { Album } from '../../library/types.ts';
import { useAlbumTitle } from '../albums/album-title.ts';
import { PublicLinkSection } from './PublicLinkSection.tsx';
import type { ShareActions } from './share-types.ts';
import { SharePeople } from './SharePeople.tsx';

export interface ShareDialogProps {
  open: boolean;
  album: Album;
  /** The address the album's link is shared as (its key in the fragment), when it has a link. */
  linkURL: string | undefined;
  actions: ShareActions;
  onClose: () => void;
}

export function ShareDialog({ open, album, linkURL, actions, onClose }: ShareDialogProps) {
  const { t } = useTranslation('photos');
  const title = useAlbumTitle();
  const { t: tc } = useTranslation('common');
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {t('share.title', { name: title(album) })}
      </DialogTitle>
      <DialogContent>
        <SharePeople album={album} actions={actions} />
        <Divider sx={{ my: 2 }} />
        <PublicLinkSection album={album} linkURL={linkURL} actions={actions} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{tc('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
