// Moving files to the trash: how many, and that the trash deletes them for ever after 30 days (the server's
// rule, docs/protocol.md#trash) unless restored. Cancel has the focus.
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import { AlbumDialogFrame } from './AlbumDialogFrame.tsx';
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
  const action = useDialogAction(onClose);
  return (
    <AlbumDialogFrame
      open={open}
      title={t('dialogs.trash_title')}
      description={t('dialogs.trash_body', { count })}
      action={action}
      onClose={onClose}
      cancelFocused
      confirm={
        <LoadingButton variant="contained" color="error" loading={action.pending} onClick={() => action.run(onConfirm)}>
          {t('dialogs.trash_confirm')}
        </LoadingButton>
      }
    />
  );
}
