// A confirmation of what cannot be undone (move to the trash, delete for ever, empty the trash, remove
// duplicates): what happens, Cancel (which has the focus) and the action's button. Each view fetches it with
// import() when first needed.
import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import { AlbumDialogFrame } from './albums/AlbumDialogFrame.tsx';
import { useDialogAction } from './albums/use-dialog-action.ts';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What happens, read as the dialog's description. */
  description: string;
  /** The action's button. */
  confirmLabel: string;
  onClose: () => void;
  /** Does it; the dialog closes when it resolves, and says it failed when it rejects. */
  onConfirm: () => Promise<unknown>;
}

export function ConfirmDialog({ confirmLabel, onConfirm, ...frame }: ConfirmDialogProps) {
  const action = useDialogAction(frame.onClose);
  return (
    <AlbumDialogFrame
      {...frame}
      action={action}
      cancelFocused
      confirm={
        <LoadingButton variant="contained" color="error" loading={action.pending} onClick={() => action.run(onConfirm)}>
          {confirmLabel}
        </LoadingButton>
      }
    />
  );
}
