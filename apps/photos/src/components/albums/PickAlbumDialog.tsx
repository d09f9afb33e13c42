// Choosing the album to add the selected files to, or to move them to: "New album…" first, then the albums
// the page offers (those the person may add to; for a move, without the album they come from).
import AddIcon from '@mui/icons-material/Add';
import PhotoAlbumIcon from '@mui/icons-material/PhotoAlbumOutlined';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import type { Album } from '../../library/types.ts';
import { useAlbumTitle } from './album-title.ts';
import { AlbumDialogFrame } from './AlbumDialogFrame.tsx';
import { useDialogAction } from './use-dialog-action.ts';

export interface PickAlbumDialogProps {
  open: boolean;
  purpose: 'add' | 'move';
  /** The albums to choose from. */
  albums: readonly Album[];
  onClose: () => void;
  /** Adds or moves the files to the chosen album; the dialog closes when it resolves. */
  onPick: (album: Album) => Promise<unknown>;
  /** "New album…" (offered when given): the page opens the create dialog instead. */
  onNew?: () => void;
}

export function PickAlbumDialog({ open, purpose, albums, onClose, onPick, onNew }: PickAlbumDialogProps) {
  const { t } = useTranslation('photos');
  const albumTitle = useAlbumTitle();
  const action = useDialogAction(onClose);
  const title = t(purpose === 'add' ? 'dialogs.pick_add_title' : 'dialogs.pick_move_title');
  return (
    <AlbumDialogFrame open={open} title={title} action={action} onClose={onClose}>
      <List component="div" sx={{ mx: -2 }}>
        {onNew && (
          <ListItemButton autoFocus onClick={onNew} disabled={action.pending}>
            <ListItemIcon>
              <AddIcon />
            </ListItemIcon>
            <ListItemText primary={t('dialogs.pick_new')} />
          </ListItemButton>
        )}
        {albums.map((album, index) => (
          <ListItemButton
            key={album.id}
            autoFocus={!onNew && index === 0}
            disabled={action.pending}
            onClick={() => action.run(() => onPick(album))}
          >
            <ListItemIcon>
              <PhotoAlbumIcon />
            </ListItemIcon>
            <ListItemText primary={albumTitle(album)} slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }} />
          </ListItemButton>
        ))}
      </List>
      {albums.length === 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('dialogs.pick_none')}
        </Typography>
      )}
    </AlbumDialogFrame>
  );
}
