// The one clock every card of the list follows (docs/product.md#the-codes): a single timer that fires
// at each whole second of server time (Date.now() + the vault's time offset, docs/protocol.md's
// server − local), only while something listens. A card does not re-render each second: it derives a
// small "phase" from the time (which period it is in, and whether less than 40 % of it is left) and
// React re-renders it only when that phase changes; the draining bar in between is a CSS animation.
// See: [Note: One shared timer]
//
// [Note: One shared timer]
// With thousands of codes, one interval per card (or a re-render of every card every second) costs
// milliseconds of main thread per second. Here the per-second work is one timer callback that calls
// each subscribed listener; only mounted (on-screen) cards subscribe, and each compares one number.
// A code is generated again only when its period changes (twice per period counting the colour switch
// of the bar), and the bar's movement is left to the compositor (a transform animation).

export interface Ticker {
  /** Server time in ms: Date.now() + the offset. */
  now: () => number;
  /** Calls `listener` at every whole second of server time (and when the tab becomes visible again). */
  subscribe: (listener: () => void) => () => void;
  /** Sets server − local in ms (the vault's `timeOffsetMs`). */
  setOffset: (offsetMs: number) => void;
}

export function createTicker(offsetMs = 0): Ticker {
  let offset = offsetMs;
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const now = () => Date.now() + offset;
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const schedule = () => {
    // 1 ms past the boundary, so that the listeners see the new second.
    timer = setTimeout(tick, 1001 - (((now() % 1000) + 1000) % 1000));
  };
  const tick = () => {
    notify();
    schedule();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') notify();
  };

  return {
    now,
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) {
        schedule();
        document.addEventListener('visibilitychange', onVisibility);
      }
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        clearTimeout(timer);
        timer = undefined;
        document.removeEventListener('visibilitychange', onVisibility);
      };
    },
    setOffset(offsetMs) {
      if (offsetMs === offset) return;
      offset = offsetMs;
      if (timer !== undefined) {
        clearTimeout(timer);
        tick();
      }
    },
  };
}

/** The timing of a code at a moment: the period it is in and whether the bar shows the warning colour. */
export interface CodePhase {
  /** Index of the period (TOTP, Steam); 0 for HOTP, whose code changes only with its counter. */
  step: number;
  /** Less than 40 % of the period is left (never for HOTP). */
  warn: boolean;
  /** Seconds of the period already gone (0 for HOTP). */
  elapsed: number;
}

/** The period in ms, with a guard against a zero or negative period read from a broken URI. */
export function periodMs(period: number): number {
  return (period > 0 ? period : 30) * 1000;
}

/** The phase of a code at `nowMs`, packed in one number (so that React compares it cheaply). */
export function packedPhase(type: string, period: number, nowMs: number): number {
  if (type === 'hotp') return 0;
  const length = periodMs(period);
  const step = Math.floor(nowMs / length);
  const remaining = length - (nowMs - step * length);
  return step * 2 + (remaining <= 0.4 * length ? 1 : 0);
}

export function unpackPhase(type: string, period: number, packed: number, nowMs: number): CodePhase {
  if (type === 'hotp') return { step: 0, warn: false, elapsed: 0 };
  const step = Math.floor(packed / 2);
  const elapsed = Math.min(Math.max(nowMs - step * periodMs(period), 0), periodMs(period)) / 1000;
  return { step, warn: packed % 2 === 1, elapsed };
}
