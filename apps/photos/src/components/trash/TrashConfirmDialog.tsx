// Deleting trashed files for ever, or emptying the trash: what goes, and that it cannot be undone. Cancel
// has the focus.
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import { AlbumDialogFrame } from '../albums/AlbumDialogFrame.tsx';
import { useDialogAction } from '../albums/use-dialog-action.ts';

export interface TrashConfirmDialogProps {
  open: boolean;
  /** The files to delete for ever; `all`: the whole trash. */
  what: { kind: 'files'; count: number } | { kind: 'all' };
  onClose: () => void;
  /** Deletes; the dialog closes when it resolves. */
  onConfirm: () => Promise<unknown>;
}

export function TrashConfirmDialog({ open, what, onClose, onConfirm }: TrashConfirmDialogProps) {
  const { t } = useTranslation('photos');
  const action = useDialogAction(onClose);
  const all = what.kind === 'all';
  return (
    <AlbumDialogFrame
      open={open}
      title={t(all ? 'trash.empty_title' : 'trash.delete_title')}
      description={all ? t('trash.empty_body') : t('trash.delete_body', { count: what.count })}
      action={action}
      onClose={onClose}
      cancelFocused
      confirm={
        <LoadingButton variant="contained" color="error" loading={action.pending} onClick={() => action.run(onConfirm)}>
          {t(all ? 'trash.empty' : 'trash.delete_forever')}
        </LoadingButton>
      }
    />
  );
}
