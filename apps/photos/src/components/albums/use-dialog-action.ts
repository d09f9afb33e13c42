// The confirm button of an album dialog: runs the page's action (a promise), shows the button busy meanwhile,
// closes the dialog when it resolves, and keeps it open with a message when it rejects (the page has logged
// what failed), so that the person can try again or cancel.
import { useState } from 'react';

export function useDialogAction(onClose: () => void) {
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
  /** Forgets a failure (the dialog opens again). */
  const reset = () => setFailed(false);
  return { pending, failed, run, reset };
}
