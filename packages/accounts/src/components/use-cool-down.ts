// A countdown in whole seconds, for buttons that may be pressed again only after a while (resending an
// e-mail code). `start()` begins a new period; `remaining` is 0 once it is over. Counted from a
// deadline rather than by ticks, so a throttled background tab still ends on time.
import { useCallback, useEffect, useState } from 'react';

export interface CoolDown {
  /** Whole seconds left, 0 when the action may run again. */
  remaining: number;
  start: () => void;
}

export function useCoolDown(seconds: number, { startNow = false } = {}): CoolDown {
  const [deadline, setDeadline] = useState<number | undefined>(() =>
    startNow ? Date.now() + seconds * 1000 : undefined,
  );
  const [remaining, setRemaining] = useState(startNow ? seconds : 0);

  useEffect(() => {
    if (deadline === undefined) return;
    const update = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setRemaining(left);
      return left;
    };
    if (update() === 0) return;
    const timer = setInterval(() => {
      if (update() === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [deadline]);

  const start = useCallback(() => setDeadline(Date.now() + seconds * 1000), [seconds]);
  return { remaining, start };
}
