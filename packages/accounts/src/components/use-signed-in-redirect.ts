// /login and /signup are for signed-out visitors: someone signed in goes where session.ts says (the
// app's home, or /credentials to unlock this tab, or /generate to finish a sign-up). Whether anyone is
// signed in is read synchronously from storage; the flow module that decides where to go loads only
// when someone is, so a signed-out visit does not pay for it.
import { useRouter } from 'next/router';
import { useEffect } from 'react';

import { useLoggedIn } from '@ente/shared/app/use-logged-in.ts';
import { log } from '@ente/shared/log.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

/** Sends a signed-in visitor on; returns whether someone is signed in (show the overlay meanwhile). */
export function useSignedInRedirect(): boolean {
  const router = useRouter();
  const loggedIn = useLoggedIn();
  useEffect(() => {
    if (!isLoggedIn()) return;
    import('../services/session.ts').then(
      ({ signedInRedirect }) => {
        const target = signedInRedirect();
        if (target !== undefined) void router.replace(target);
      },
      (e: unknown) => log.warn('Could not load the session flows', e),
    );
    // Decided once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return loggedIn;
}
