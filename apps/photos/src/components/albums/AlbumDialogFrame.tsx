// What every album dialog has: the dialog named by its title (and described by its first line, when it has
// one), the content, the failure line when the page's action rejected, and Cancel beside the dialog's own
// button. While the action runs, neither Escape nor a click outside closes it.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { DialogAction } from './use-dialog-action.ts';

export interface AlbumDialogFrameProps {
  open: boolean;
  title: string;
  /** The line under the title that describes the dialog, if any. */
  description?: string;
  /** The state of the page's action (use-dialog-action.ts). */
  action: DialogAction;
  onClose: () => void;
  /** Whether Cancel takes the focus when the dialog opens (a dialog whose action cannot be undone). */
  cancelFocused?: boolean;
  /** The dialog's own button, after Cancel. */
  confirm?: ReactNode;
  children?: ReactNode;
}

export function AlbumDialogFrame(props: AlbumDialogFrameProps) {
  const { open, title, description, action, onClose, cancelFocused = false, confirm, children } = props;
  const { t } = useTranslation('photos');
  const { t: tc } = useTranslation('common');
  const id = useId();
  return (
    <Dialog
      open={open}
      onClose={action.pending ? undefined : onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={description ? `${id}-description` : undefined}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={`${id}-title`} sx={{ overflowWrap: 'anywhere' }}>
        {title}
      </DialogTitle>
      <DialogContent>
        {description && <DialogContentText id={`${id}-description`}>{description}</DialogContentText>}
        {children}
        {action.failed && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t('unknown', { ns: 'errors' })}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={action.pending} autoFocus={cancelFocused}>
          {tc('cancel')}
        </Button>
        {confirm}
      </DialogActions>
    </Dialog>
  );
}
