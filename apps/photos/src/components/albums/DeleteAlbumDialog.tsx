// Deleting an album: what becomes of its files, kept (the default: they stay in the library and the other
// albums) or removed (the person's files in it go to the trash, from every album; docs/protocol.md#photos,
// DELETE /collections/v3 with keepFiles).
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import type { Album } from '../../library/types.ts';
import { AlbumDialogFrame } from './AlbumDialogFrame.tsx';
import { useDialogAction } from './use-dialog-action.ts';

export interface DeleteAlbumDialogProps {
  open: boolean;
  album: Album;
  onClose: () => void;
  /** Deletes the album, keeping its files or not; the dialog closes when it resolves. */
  onDelete: (album: Album, keepFiles: boolean) => Promise<unknown>;
}

export function DeleteAlbumDialog({ open, album, onClose, onDelete }: DeleteAlbumDialogProps) {
  const { t } = useTranslation('photos');
  const [keep, setKeep] = useState(true);
  const action = useDialogAction(onClose);
  return (
    <AlbumDialogFrame
      open={open}
      title={t('dialogs.delete_title', { name: album.name })}
      description={t('dialogs.delete_body')}
      action={action}
      onClose={onClose}
      confirm={
        <LoadingButton
          variant="contained"
          color="error"
          loading={action.pending}
          onClick={() => action.run(() => onDelete(album, keep))}
        >
          {t('dialogs.delete_confirm')}
        </LoadingButton>
      }
    >
      <RadioGroup
        aria-label={t('dialogs.delete_body')}
        value={keep ? 'keep' : 'remove'}
        onChange={(event) => setKeep(event.target.value === 'keep')}
        sx={{ mt: 1 }}
      >
        <Choice value="keep" label={t('dialogs.delete_keep')} hint={t('dialogs.delete_keep_hint')} />
        <Choice value="remove" label={t('dialogs.delete_remove')} hint={t('dialogs.delete_remove_hint')} />
      </RadioGroup>
    </AlbumDialogFrame>
  );
}

function Choice({ value, label, hint }: { value: string; label: string; hint: string }) {
  return (
    <FormControlLabel
      value={value}
      control={<Radio />}
      sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { pt: 0.5 } }}
      label={
        <>
          <Typography component="span" sx={{ display: 'block', fontWeight: 600 }}>
            {label}
          </Typography>
          <Typography component="span" variant="body2" sx={{ display: 'block', color: 'text.secondary' }}>
            {hint}
          </Typography>
        </>
      }
    />
  );
}
