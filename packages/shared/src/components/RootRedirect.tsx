// The root page of an app that has its real home elsewhere: a signed-in visitor goes to `home`, anyone
// else to /login. The loading overlay shows while the redirect runs.
import { useRouter } from 'next/router';
import { useEffect, useRef } from 'react';

import { isLoggedIn } from '../storage/user.ts';
import { LoadingOverlay } from './LoadingOverlay.tsx';

export function RootRedirect({ home }: { home: string }) {
  const router = useRouter();
  // The router object changes while the redirect runs; redirect only once.
  const redirected = useRef(false);
  useEffect(() => {
    if (redirected.current) return;
    redirected.current = true;
    void router.replace(isLoggedIn() ? home : '/login');
  }, [home, router]);
  return <LoadingOverlay />;
}
