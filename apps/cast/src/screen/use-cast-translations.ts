// The `cast` namespace is in no first load (src/locales.ts): the screen waits for it, retrying every few seconds
// while it cannot be fetched (a screen has nobody to close an error dialog).
import { useEffect, useState } from 'react';

import { i18n, loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { defaultLocale } from '@ente/shared/i18n/locales.ts';

const RETRY_MS = 5000;

export function useCastTranslations(): boolean {
  const [ready, setReady] = useState(() => i18n.hasResourceBundle(defaultLocale, 'cast'));
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (ready) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    loadNamespace('cast').then(
      () => !cancelled && setReady(true),
      () => {
        if (!cancelled) timer = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
      },
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [ready, attempt]);
  return ready;
}
