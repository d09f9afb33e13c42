// Route-change events of the Next router, as React state and as loading-bar runs.
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';

import { finishLoadingBar, startLoadingBar } from '../loading-bar.ts';
import { isPathChange } from './route-change.ts';

/** True from the start of a route change to another path until it completes or fails. */
export function useRouteChangeToOtherPath(): boolean {
  const { events, asPath } = useRouter();
  const currentPath = useRef(asPath);
  const [changing, setChanging] = useState(false);

  useEffect(() => {
    currentPath.current = asPath;
  }, [asPath]);

  useEffect(() => {
    const onStart = (url: string) => {
      if (isPathChange(currentPath.current, url)) setChanging(true);
    };
    const onEnd = () => setChanging(false);
    events.on('routeChangeStart', onStart);
    events.on('routeChangeComplete', onEnd);
    events.on('routeChangeError', onEnd);
    return () => {
      events.off('routeChangeStart', onStart);
      events.off('routeChangeComplete', onEnd);
      events.off('routeChangeError', onEnd);
    };
  }, [events]);

  return changing;
}

/** Runs the top loading bar while any route change (also a query-only one) is in progress. */
export function useLoadingBarOnRouteChange(): void {
  const { events } = useRouter();
  useEffect(() => {
    events.on('routeChangeStart', startLoadingBar);
    events.on('routeChangeComplete', finishLoadingBar);
    events.on('routeChangeError', finishLoadingBar);
    return () => {
      events.off('routeChangeStart', startLoadingBar);
      events.off('routeChangeComplete', finishLoadingBar);
      events.off('routeChangeError', finishLoadingBar);
    };
  }, [events]);
}
