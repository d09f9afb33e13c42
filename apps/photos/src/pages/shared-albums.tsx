// /shared-albums?t=<token>#<album key>: a public album, opened without an account (docs/protocol.md#public-links).
// Nobody is sent to /login here. The page's code (the grid, the viewer, the album's decryption) comes with
// import(), started as this module runs, so that this route's first load stays within the budget.
import { useEffect, useState } from 'react';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';

import type * as SharedAlbumModule from '../app/SharedAlbumPage.tsx';
import { lazyModule } from '../app/use-signed-in-module.ts';

const sharedAlbumPage = lazyModule(() => import('../app/SharedAlbumPage.tsx'));

if (typeof window !== 'undefined') sharedAlbumPage.load().catch(() => undefined);

export default function Page() {
  const [state, setState] = useState<{ module?: typeof SharedAlbumModule; error?: Error }>(() => ({
    module: sharedAlbumPage.loaded(),
  }));
  useEffect(() => {
    if (state.module) return;
    let live = true;
    sharedAlbumPage.load().then(
      (module) => live && setState({ module }),
      (error: unknown) => live && setState({ error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [state.module]);
  // A failed load is the shell's error boundary's to report.
  if (state.error) throw state.error;
  const SharedAlbumPage = state.module?.SharedAlbumPage;
  return SharedAlbumPage ? <SharedAlbumPage /> : <LoadingOverlay />;
}
