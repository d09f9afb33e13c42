// The cast screen's pairing as a pure state machine (docs/protocol.md#cast): register a key pair for a code,
// show the code while polling for a sender, register again when the code is gone (expired: 404), open the
// payload once it comes, and fall back to a fresh code, saying why, when the cast ends (401: revoked) or keeps
// failing. The effects (requests, timers, the worker) are use-pairing.ts's.
import type { CastPayload } from '@ente/protocol';

/** Why the screen is back at pairing: shown as a short line under the code. */
export type PairingNotice = 'revoked' | 'failed' | 'unreadable' | 'offline';

export type PairingState =
  | { phase: 'registering'; notice?: PairingNotice | undefined; attempt: number }
  | { phase: 'waiting'; code: string; notice?: PairingNotice | undefined }
  | { phase: 'paired'; payload: CastPayload };

export type PairingEvent =
  /** POST /cast/device-info answered a code. */
  | { type: 'registered'; code: string }
  /** The registration did not go through (network, 429, 5xx): try again later. */
  | { type: 'registerFailed' }
  /** The poll's 404: the code expired or was taken; a new one. */
  | { type: 'codeGone' }
  /** The poll's payload opened and checked. */
  | { type: 'opened'; payload: CastPayload }
  /** The poll's payload did not open or is not a cast payload. */
  | { type: 'unreadable' }
  /** While casting: 401 (the token was revoked, the album unshared or deleted). */
  | { type: 'revoked' }
  /** While casting: too many failures in a row. */
  | { type: 'failed' };

export const initialPairing: PairingState = { phase: 'registering', attempt: 0 };

/** How often the screen asks whether a sender paired (as Ente's page does: the wait is most of a pairing's time). */
export const POLL_MS = 2000;
/** A registration that failed is tried again after this long (times the attempts so far, at most 30 s). */
export const REGISTER_RETRY_MS = 3000;

export function registerRetryDelay(attempt: number): number {
  return Math.min(REGISTER_RETRY_MS * Math.max(1, attempt), 30_000);
}

export function nextPairing(state: PairingState, event: PairingEvent): PairingState {
  switch (event.type) {
    case 'registered':
      // Reaching the server ends an offline notice; a revoked or failed cast stays said under the new code.
      return state.phase === 'registering'
        ? { phase: 'waiting', code: event.code, notice: state.notice === 'offline' ? undefined : state.notice }
        : state;
    case 'registerFailed':
      return state.phase === 'registering'
        ? { phase: 'registering', notice: 'offline', attempt: state.attempt + 1 }
        : state;
    case 'codeGone':
      return state.phase === 'waiting' ? { phase: 'registering', notice: state.notice, attempt: 0 } : state;
    case 'opened':
      return state.phase === 'waiting' ? { phase: 'paired', payload: event.payload } : state;
    case 'unreadable':
      return state.phase === 'waiting' ? { phase: 'registering', notice: 'unreadable', attempt: 0 } : state;
    case 'revoked':
    case 'failed':
      return state.phase === 'paired' ? { phase: 'registering', notice: event.type, attempt: 0 } : state;
  }
}
