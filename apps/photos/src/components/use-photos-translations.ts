// The `photos` namespace is not in any first load (src/locales.ts): the components of this folder render
// under a parent that waited for it with this hook; the public album's pages wait only for its `album` part.
import { useEffect, useState } from 'react';

import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { isNamespaceLoaded, loadNamespace } from '@ente/shared/i18n/i18n.ts';

/**
 * Whether the photos translations (all, or the public album's `album` part) are in place; fetches them on the first
 * render. A failed fetch (offline before they were ever cached) shows the shell's failure dialog, and closing it
 * tries again.
 */
export function usePhotosTranslations(part: 'photos' | 'album' = 'photos'): boolean {
  const [ready, setReady] = useState(() => isNamespaceLoaded(part));
  const [attempt, setAttempt] = useState(0);
  const { onGenericError } = useDialog();
  useEffect(() => {
    if (ready) return;
    let cancelled = false;
    loadNamespace(part).then(
      () => !cancelled && setReady(true),
      (e: unknown) => {
        if (!cancelled)
          onGenericError(e, {
            message: 'Could not load the photos translations',
            onClose: () => setAttempt((n) => n + 1),
          });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [ready, attempt, onGenericError, part]);
  return ready;
}
