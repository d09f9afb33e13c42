// Sends the visitor elsewhere, once, when a page finds on arrival that it has nothing to do (e.g.
// /verify without an address to verify). The condition is read from storage itself, after the first
// render, as the shell's own redirects do.
import { useRouter } from 'next/router';
import { useEffect, useRef } from 'react';

/** After mount, when `where()` names a route, replaces this page with it. */
export function useRedirectOnArrival(where: () => string | undefined): void {
  const router = useRouter();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const target = where();
    if (target !== undefined) void router.replace(target);
    // Decided once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
