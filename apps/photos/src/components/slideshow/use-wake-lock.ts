// The screen kept awake while `active`, where the browser has the Screen Wake Lock API (elsewhere nothing happens).
// The browser drops the lock when the tab is hidden; it is taken again when the tab shows.
import { useEffect } from 'react';

interface WakeLockSentinel {
  release(): Promise<void>;
}

interface WakeLock {
  request(type: 'screen'): Promise<WakeLockSentinel>;
}

export function useWakeLock(active: boolean): void {
  useEffect(() => {
    const wakeLock = typeof navigator === 'undefined' ? undefined : (navigator as { wakeLock?: WakeLock }).wakeLock;
    if (!active || !wakeLock) return;
    let live = true;
    let sentinel: WakeLockSentinel | undefined;
    const acquire = () => {
      if (document.visibilityState !== 'visible' || sentinel) return;
      // Refused (a policy, low battery): the show goes on without it.
      wakeLock.request('screen').then(
        (taken) => {
          if (live) sentinel = taken;
          else void taken.release().catch(() => undefined);
        },
        () => undefined,
      );
    };
    const onVisibility = () => {
      // A hidden tab's lock is gone already.
      if (document.visibilityState !== 'visible') sentinel = undefined;
      else acquire();
    };
    acquire();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', onVisibility);
      void sentinel?.release().catch(() => undefined);
    };
  }, [active]);
}
