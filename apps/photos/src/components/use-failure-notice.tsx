// An action of a view that fails after the person's click with no dialog to say so (a restore from the trash, a
// removal from an album), told in words: an alert at the top right of the window until closed or tried again. The
// page logs the error; this tells the person, who would otherwise see nothing happen. MUI's Alert is fetched with the
// first failure: the views that use this (a public album's among them) have it out of their first load.
import { lazy, Suspense, useState } from 'react';

import { cornerAlertSx } from './corner-alert.ts';

const Alert = lazy(() => import('@mui/material/Alert'));

export function useFailureNotice() {
  const [text, setText] = useState<string>();
  /** Runs `action`; a failure shows `failure` (a new try hides the last one first). */
  const run = (action: () => Promise<unknown>, failure: string) => {
    setText(undefined);
    Promise.resolve()
      .then(action)
      .catch(() => setText(failure));
  };
  const element =
    text === undefined ? null : (
      // The alert says it once loaded; until then (a local chunk) nothing is drawn in its place.
      <Suspense fallback={null}>
        <Alert severity="error" onClose={() => setText(undefined)} sx={cornerAlertSx('top', 'right')}>
          {text}
        </Alert>
      </Suspense>
    );
  return { run, element };
}
