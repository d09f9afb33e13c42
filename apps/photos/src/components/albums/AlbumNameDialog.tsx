// The name of a new album, or the new name of one: a field (required, trimmed) and the confirm button.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

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
  const { t: tc } = useTranslation('common');
  const id = useId();
  const [name, setName] = useState(initialName);
  const [missing, setMissing] = useState(false);
  const action = useDialogAction(onClose);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setMissing(true);
      return;
    }
    if (mode === 'rename' && trimmed === initialName) {
      onClose();
      return;
    }
    action.run(() => onSubmit(trimmed));
  };

  return (
    <Dialog
      open={open}
      onClose={action.pending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={`${id}-title`}>
        {t(mode === 'create' ? 'dialogs.create_title' : 'dialogs.rename_title')}
      </DialogTitle>
      <DialogContent>
        <Box component="form" id={`${id}-form`} noValidate onSubmit={submit}>
          <TextField
            autoFocus
            fullWidth
            required
            margin="dense"
            label={t('dialogs.name_label')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setMissing(false);
            }}
            error={missing}
            helperText={missing ? t('dialogs.name_required') : undefined}
            slotProps={{ htmlInput: { maxLength: 200, autoComplete: 'off' } }}
          />
        </Box>
        {action.failed && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t('unknown', { ns: 'errors' })}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={action.pending}>
          {tc('cancel')}
        </Button>
        <LoadingButton type="submit" form={`${id}-form`} variant="contained" loading={action.pending}>
          {t(mode === 'create' ? 'dialogs.create' : 'dialogs.rename')}
        </LoadingButton>
      </DialogActions>
    </Dialog>
  );
}
