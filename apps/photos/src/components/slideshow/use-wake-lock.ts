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
    // One request at a time: a second one (the tab hidden and shown again before the first answered) would leave
    // the first lock held, unreleased, after the show ends.
    let requesting = false;
    const acquire = () => {
      if (document.visibilityState !== 'visible' || sentinel || requesting) return;
      requesting = true;
      // Refused (a policy, low battery): the show goes on without it.
      wakeLock.request('screen').then(
        (taken) => {
          requesting = false;
          if (live && document.visibilityState === 'visible') sentinel = taken;
          else void taken.release().catch(() => undefined);
          // Shown again while the request was out (its lock went with the hidden tab): asked anew.
          if (live && !sentinel) acquire();
        },
        () => {
          requesting = false;
        },
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
