// /shared-albums?t=<token>#<album key>: a public album, opened without an account (docs/protocol.md#public-links).
// Nobody is sent to /login here. A visit without a link is told so from this route's first load; with one, the
// album's code comes with import(), started as this module runs: the password form and the decryption first, the
// grid once the album opens, the viewer when a photo opens (app/SharedAlbumPage.tsx).
import { lazy, Suspense, useSyncExternalStore } from 'react';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';

import { lazyModule } from '../app/lazy-module.ts';
import { usePhotosTranslations } from '../components/use-photos-translations.ts';
import { parsePublicLink } from '../public-album/link.ts';
import { LinkProblem } from '../public-album/LinkProblem.tsx';

const sharedAlbumPage = lazyModule(() => import('../app/SharedAlbumPage.tsx'));

const hasLink = () => parsePublicLink(window.location.href) !== undefined;
const currentHref = () => window.location.href;
const onHashChange = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

if (typeof window !== 'undefined' && hasLink()) sharedAlbumPage.load().catch(() => undefined);

export default function Page() {
  // Undecided in the prerender and the hydration that must match it. Another link pasted into this tab (only the
  // fragment changed: no reload) opens afresh.
  const href = useSyncExternalStore(onHashChange, currentHref, () => undefined);
  if (href === undefined) return <LoadingOverlay />;
  return parsePublicLink(href) ? (
    // A failed load is the shell's error boundary's to report.
    <Suspense fallback={<LoadingOverlay />}>
      <AlbumOfLink key={href} href={href} />
    </Suspense>
  ) : (
    <NoLink />
  );
}

function NoLink() {
  return usePhotosTranslations('album') ? <LinkProblem reason="wrongLink" /> : <LoadingOverlay />;
}

/** The album page, fetched (if this module has not started it already) when first rendered. */
const AlbumOfLink = lazy(() => sharedAlbumPage.load().then((module) => ({ default: module.SharedAlbumPage })));
