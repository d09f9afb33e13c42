// The action of an album dialog: runs the page's action (a promise), marks the dialog busy meanwhile, closes it
// when the action resolves, and keeps it open with a failure line when it rejects (the page has logged what
// failed), so that the person can try again or cancel.
import { useState } from 'react';

export interface DialogAction {
  pending: boolean;
  failed: boolean;
  run: (action: () => Promise<unknown>) => void;
}

export function useDialogAction(onClose: () => void): DialogAction {
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  const run = (action: () => Promise<unknown>) => {
    if (pending) return;
    setPending(true);
    setFailed(false);
    action().then(
      () => {
        setPending(false);
        onClose();
      },
      () => {
        setPending(false);
        setFailed(true);
      },
    );
  };
  return { pending, failed, run };
}
