// What the codes page starts once, beside showing the codes: the brand icons and the service worker
// once codes are on screen, the dialogs' code fetched ahead when the browser is idle, and the
// benchmark's "codes visible" mark.
import { useEffect, useRef, useState } from 'react';

import { whenIdle } from '@ente/shared/app/when-idle.ts';
import { log } from '@ente/shared/log.ts';

import { loadBrandIndex, type BrandIndex } from '../../services/brand-icons.ts';
import { registerServiceWorker } from '../../services/service-worker.ts';
import { prefetchDialogs } from './PageDialogs.tsx';

/** The performance mark of the first frame that shows codes (bench/vault.mjs reads it). */
const codesVisibleMark = 'ente:codes-visible';
let codesShownInThisDocument = false;

export interface PageStartUp {
  brandIndex: BrandIndex | undefined;
  /** Switches to a new version of the app that waits, if there is one. */
  update: (() => void) | undefined;
}

/**
 * `ready`: the vault has synced; `hasReadableCodes`: there are readable codes outside the trash;
 * `showsCodes`: the list shows at least one card.
 */
export function usePageStartUp({
  ready,
  hasReadableCodes,
  showsCodes,
}: {
  ready: boolean;
  hasReadableCodes: boolean;
  showsCodes: boolean;
}): PageStartUp {
  const [brandIndex, setBrandIndex] = useState<BrandIndex>();
  const [update, setUpdate] = useState<() => void>();

  useEffect(() => {
    if (!ready || !hasReadableCodes || brandIndex) return;
    let cancelled = false;
    void loadBrandIndex().then((index) => !cancelled && index && setBrandIndex(index));
    return () => {
      cancelled = true;
    };
  }, [ready, hasReadableCodes, brandIndex]);

  // The service worker (offline use) from the first time the codes show.
  const registered = useRef(false);
  useEffect(() => {
    if (!ready || registered.current) return;
    registered.current = true;
    void registerServiceWorker({ onUpdateReady: (apply) => setUpdate(() => apply) });
  }, [ready]);

  useEffect(() => whenIdle(() => prefetchDialogs((e) => log.warn('Prefetch failed', e))), []);

  // The first frame painted with cards.
  useEffect(() => {
    if (!showsCodes || codesShownInThisDocument) return;
    codesShownInThisDocument = true;
    requestAnimationFrame(() => setTimeout(() => performance.mark(codesVisibleMark)));
  }, [showsCodes]);

  return { brandIndex, update };
}
