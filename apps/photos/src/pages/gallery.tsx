// /gallery: the photos of the library and its other sections (?view=albums|shared|trash, an album with
// &album=<id>). This module is every visit's first load, so it holds only the arrival rules; the library's
// views come with import() once the visitor may see them (../app/use-signed-in-module.ts).
import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';

import { arrivalRedirect, lazyModule, useSignedInModule } from '../app/use-signed-in-module.ts';

const galleryPage = lazyModule(() => import('../app/GalleryPage.tsx'));

// An unlocked tab starts fetching the page's code as this module runs, before React renders.
if (typeof window !== 'undefined' && arrivalRedirect() === undefined) galleryPage.load().catch(() => undefined);

export default function Page() {
  const GalleryPage = useSignedInModule(galleryPage)?.GalleryPage;
  return GalleryPage ? <GalleryPage /> : <LoadingOverlay />;
}
