// Moving files to the trash: how many, and that the trash deletes them for ever after 30 days (the server's
// rule, docs/protocol.md#trash) unless restored.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import { useDialogAction } from './use-dialog-action.ts';

export interface ConfirmTrashDialogProps {
  open: boolean;
  count: number;
  onClose: () => void;
  /** Trashes the files; the dialog closes when it resolves. */
  onConfirm: () => Promise<unknown>;
}

export function ConfirmTrashDialog({ open, count, onClose, onConfirm }: ConfirmTrashDialogProps) {
  const { t } = useTranslation('photos');
  const { t: tc } = useTranslation('common');
  const id = useId();
  const action = useDialogAction(onClose);
  return (
    <Dialog
      open={open}
      onClose={action.pending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={`${id}-title`}>{t('dialogs.trash_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-body`}>{t('dialogs.trash_body', { count })}</DialogContentText>
        {action.failed && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t('unknown', { ns: 'errors' })}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={action.pending} autoFocus>
          {tc('cancel')}
        </Button>
        <LoadingButton variant="contained" color="error" loading={action.pending} onClick={() => action.run(onConfirm)}>
          {t('dialogs.trash_confirm')}
        </LoadingButton>
      </DialogActions>
    </Dialog>
  );
}
