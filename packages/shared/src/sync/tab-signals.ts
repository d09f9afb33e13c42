// When a synced store of this tab should pull: another tab of this browser changed it (a
// BroadcastChannel message "changed", never any data), the network came back, the tab became visible, or
// a timer ticked while it is visible; and when it went offline. Generic: the vault uses it, and any
// other store kept in step with a server (photos' collections and files) can.

export interface TabSignalOptions {
  /** The BroadcastChannel shared by the tabs of one store. */
  channel: string;
  /** How often a visible tab pulls. */
  intervalMs: number;
  /** Pull now. */
  onPull: () => void;
  /** The browser says the network is gone. */
  onOffline: () => void;
  /** Reports a failure to tell the other tabs. */
  onAnnounceFailed?: (error: unknown) => void;
}

export interface TabSignals {
  /** Tells the other tabs that the store changed (they pull). */
  announce(): void;
  /** Stops listening (and the timer). */
  stop(): void;
}

const CHANGED_MESSAGE = 'changed';

/** Starts listening; whatever the environment lacks (a BroadcastChannel, a document) is skipped. */
export function listenToTab(options: TabSignalOptions): TabSignals {
  const { onPull, onOffline } = options;
  const cleanups: (() => void)[] = [];
  let channel: BroadcastChannel | undefined;
  if (typeof BroadcastChannel !== 'undefined') {
    const opened = new BroadcastChannel(options.channel);
    opened.onmessage = (event: MessageEvent) => {
      if (event.data === CHANGED_MESSAGE) onPull();
    };
    channel = opened;
    cleanups.push(() => opened.close());
  }
  if (typeof window !== 'undefined') {
    window.addEventListener('online', onPull);
    window.addEventListener('offline', onOffline);
    cleanups.push(() => {
      window.removeEventListener('online', onPull);
      window.removeEventListener('offline', onOffline);
    });
  }
  if (typeof document !== 'undefined') {
    const visibility = () => {
      if (document.visibilityState === 'visible') onPull();
    };
    document.addEventListener('visibilitychange', visibility);
    cleanups.push(() => document.removeEventListener('visibilitychange', visibility));
  }
  const timer = setInterval(() => {
    if (typeof document === 'undefined' || document.visibilityState !== 'hidden') onPull();
  }, options.intervalMs);
  cleanups.push(() => clearInterval(timer));
  return {
    announce() {
      try {
        channel?.postMessage(CHANGED_MESSAGE);
      } catch (e) {
        options.onAnnounceFailed?.(e);
      }
    },
    stop() {
      channel = undefined;
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}

/** Whether the browser thinks it is online (always true outside a browser). */
export function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine;
}
