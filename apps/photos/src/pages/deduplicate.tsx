// /deduplicate: groups of identical files, one kept of each. Like /gallery, the first load holds only the
// arrival rules; the page comes with import() (../app/use-signed-in-module.ts).
import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';

import { arrivalRedirect, lazyModule, useSignedInModule } from '../app/use-signed-in-module.ts';

const deduplicatePage = lazyModule(() => import('../app/DeduplicatePage.tsx'));

if (typeof window !== 'undefined' && arrivalRedirect() === undefined) deduplicatePage.load().catch(() => undefined);

export default function Page() {
  const DeduplicatePage = useSignedInModule(deduplicatePage)?.DeduplicatePage;
  return DeduplicatePage ? <DeduplicatePage /> : <LoadingOverlay />;
}
