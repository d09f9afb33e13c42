// The app's root: a signed-in visitor goes to /gallery, anyone else to /login. A public album link whose address
// is the root (`PUBLIC_ALBUMS_URL` set to the photos origin, the form of Ente's album links: `/?t=<token>#<key>`)
// opens at /shared-albums instead, its query and fragment kept.
import { useRouter } from 'next/router';
import { useEffect, useRef, useSyncExternalStore } from 'react';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { RootRedirect } from '@ente/shared/components/RootRedirect.tsx';

const noChange = () => () => undefined;
const isPublicLink = () => new URLSearchParams(window.location.search).has('t');

function ToSharedAlbums() {
  const router = useRouter();
  // The router object changes while the redirect runs; redirect only once.
  const redirected = useRef(false);
  useEffect(() => {
    if (redirected.current) return;
    redirected.current = true;
    void router.replace(`/shared-albums${window.location.search}${window.location.hash}`);
  }, [router]);
  return <LoadingOverlay />;
}

export default function Page() {
  const publicLink = useSyncExternalStore(noChange, isPublicLink, () => undefined);
  if (publicLink === undefined) return <LoadingOverlay />;
  return publicLink ? <ToSharedAlbums /> : <RootRedirect home="/gallery" />;
}
