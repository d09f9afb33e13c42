// The dialog that renames a passkey: one field, checked as the server checks it before anything is sent.
// The page gives it a new `key` for each passkey, so it starts from that passkey's name.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { log } from '@ente/shared/log.ts';

import { nameProblem, passkeyProblem } from '../services/passkey-errors.ts';

export interface RenameDialogProps {
  open: boolean;
  initial: string;
  onClose: () => void;
  onRename: (name: string) => Promise<void>;
}

export function RenameDialog({ open, initial, onClose, onRename }: RenameDialogProps) {
  const { t } = useTranslation('passkeys');
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const titleID = useId();

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    const invalid = nameProblem(trimmed);
    if (invalid) {
      setError(t(invalid));
      return;
    }
    setBusy(true);
    try {
      await onRename(trimmed);
    } catch (e) {
      log.warn('Could not rename a passkey', e);
      setError(t(passkeyProblem(e, 'failed')));
    }
    setBusy(false);
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={titleID}>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleID}>{t('rename_title')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            label={t('rename_label')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setError(undefined);
            }}
            error={error !== undefined}
            helperText={error}
            disabled={busy}
            fullWidth
            margin="dense"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            {t('rename_submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
