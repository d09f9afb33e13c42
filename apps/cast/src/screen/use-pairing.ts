// Runs the pairing state machine (pairing.ts): one key pair per page (screen-keys.ts: in memory only, nothing is
// stored), a code registered for it, polled every POLL_MS, a new code when it is gone, the sealed payload opened
// and checked.
import { useEffect, useReducer, useRef } from 'react';

import { castPayloadSchema } from '@ente/protocol';

import { CastHttpError, pollCastData, registerScreen } from './cast-api.ts';
import {
  initialPairing,
  nextPairing,
  POLL_MS,
  registerRetryDelay,
  type PairingEvent,
  type PairingState,
} from './pairing.ts';
import { makeScreenKeys, type ScreenKeys } from './screen-keys.ts';
import { loadSlideshow } from './slideshow-chunk.ts';

export function usePairing(): [PairingState, (event: PairingEvent) => void] {
  const [state, dispatch] = useReducer(nextPairing, initialPairing);
  const keys = useRef<Promise<ScreenKeys> | null>(null);
  const pair = () => (keys.current ??= makeScreenKeys());

  const registering = state.phase === 'registering' ? state.attempt : -1;
  useEffect(() => {
    if (registering < 0) return;
    let cancelled = false;
    const timer = setTimeout(
      () => {
        void pair()
          .then(({ publicKey }) => registerScreen(publicKey))
          .then(
            (code) => !cancelled && dispatch({ type: 'registered', code }),
            () => !cancelled && dispatch({ type: 'registerFailed' }),
          );
      },
      registering === 0 ? 0 : registerRetryDelay(registering),
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [registering]);

  const code = state.phase === 'waiting' ? state.code : undefined;
  useEffect(() => {
    if (code === undefined) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      let event: PairingEvent | undefined;
      try {
        const sealed = await pollCastData(code);
        if (sealed !== null) {
          // The slideshow's code comes while the payload opens.
          void loadSlideshow().catch(() => undefined);
          const { open } = await pair();
          const parsed = castPayloadSchema.safeParse(JSON.parse(await open(sealed)) as unknown);
          event = parsed.success ? { type: 'opened', payload: parsed.data } : { type: 'unreadable' };
        }
      } catch (error) {
        if (error instanceof CastHttpError && error.status === 404) event = { type: 'codeGone' };
        else if (!(error instanceof CastHttpError)) event = { type: 'unreadable' };
        // Other HTTP failures (offline, 429, 5xx): the next poll tries again.
      }
      if (cancelled) return;
      if (event) dispatch(event);
      else timer = setTimeout(() => void poll(), POLL_MS);
    };
    timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [code]);

  return [state, dispatch];
}
