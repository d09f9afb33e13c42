// The name of a new album, or the new name of one: a field (required, trimmed) and the confirm button.
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useId, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import { AlbumDialogFrame } from './AlbumDialogFrame.tsx';
import { useDialogAction } from './use-dialog-action.ts';

export interface AlbumNameDialogProps {
  open: boolean;
  mode: 'create' | 'rename';
  /** The album's name now (rename). */
  initialName?: string;
  onClose: () => void;
  /** Creates or renames; the dialog closes when it resolves. */
  onSubmit: (name: string) => Promise<unknown>;
}

export function AlbumNameDialog({ open, mode, initialName = '', onClose, onSubmit }: AlbumNameDialogProps) {
  const { t } = useTranslation('photos');
  const formId = useId();
  const [name, setName] = useState(initialName);
  const [missing, setMissing] = useState(false);
  const action = useDialogAction(onClose);

  const edit = (event: ChangeEvent<HTMLInputElement>) => {
    setName(event.target.value);
    setMissing(false);
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) setMissing(true);
    else if (mode === 'rename' && trimmed === initialName) onClose();
    else action.run(() => onSubmit(trimmed));
  };

  return (
    <AlbumDialogFrame
      open={open}
      title={t(mode === 'create' ? 'dialogs.create_title' : 'dialogs.rename_title')}
      action={action}
      onClose={onClose}
      confirm={
        <LoadingButton type="submit" form={formId} variant="contained" loading={action.pending}>
          {t(mode === 'create' ? 'dialogs.create' : 'dialogs.rename')}
        </LoadingButton>
      }
    >
      <Box component="form" id={formId} noValidate onSubmit={submit}>
        <TextField
          autoFocus
          fullWidth
          required
          margin="dense"
          label={t('dialogs.name_label')}
          value={name}
          onChange={edit}
          error={missing}
          helperText={missing ? t('dialogs.name_required') : undefined}
          slotProps={{ htmlInput: { maxLength: 200, autoComplete: 'off' } }}
        />
      </Box>
    </AlbumDialogFrame>
  );
}
