// What the sign-in flows keep in memory only, between the pages of one flow: the remembered redirect
// (docs/protocol.md#forgot-password: `/recover` waits while the e-mail code and any second factor are
// checked), the encrypted two-factor secret between the two steps of /two-factor/recover, the
// interactive KEK derived while the user is at the second factor, and the background work that makes
// the interactive key attributes. Logout forgets all of it (registerInMemoryReset).
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';

/** An interactive KEK (ops 2, 64 MiB) with its fresh salt, derived ahead of the masterKey. */
export interface InteractiveKEK {
  kek: string;
  kekSalt: string;
  opsLimit: number;
  memLimit: number;
}

export interface TwoFactorRecovery {
  sessionID: string;
  encryptedSecret: string;
  secretDecryptionNonce: string;
}

interface FlowState {
  redirect: string | undefined;
  twoFactorRecovery: TwoFactorRecovery | undefined;
  interactiveKEK: Promise<InteractiveKEK | undefined> | undefined;
  background: Promise<void>;
}

const state: FlowState = initialState();

registerInMemoryReset('accounts sign-in flows', resetFlowState);

/** Forgets everything a flow kept in memory (logout, or a new sign-in starting). */
export function resetFlowState(): void {
  Object.assign(state, initialState());
}

/** Remembers where the flow goes back to once signed in (kept in memory only). */
export function rememberRedirect(route: string): void {
  state.redirect = route;
}

/** The remembered redirect, kept (for routing decisions that may run more than once). */
export function peekRedirect(): string | undefined {
  return state.redirect;
}

/** The remembered redirect, forgotten as it is read. */
export function takeRedirect(): string | undefined {
  const route = state.redirect;
  state.redirect = undefined;
  return route;
}

export function savedTwoFactorRecovery(): TwoFactorRecovery | undefined {
  return state.twoFactorRecovery;
}

export function setTwoFactorRecovery(recovery: TwoFactorRecovery | undefined): void {
  state.twoFactorRecovery = recovery;
}

/** Keeps the interactive KEK being derived for the login under way. */
export function setPendingInteractiveKEK(pending: Promise<InteractiveKEK | undefined> | undefined): void {
  state.interactiveKEK = pending;
}

/** The interactive KEK derived for this login, forgotten as it is read. */
export function takePendingInteractiveKEK(): Promise<InteractiveKEK | undefined> | undefined {
  const pending = state.interactiveKEK;
  state.interactiveKEK = undefined;
  return pending;
}

/** Runs `work` after the background work already queued; its failure is the caller's to catch. */
export function queueBackgroundWork(work: () => Promise<void>): void {
  state.background = state.background.then(work);
}

/** Resolves when the background work queued so far (the interactive key attributes) is done. */
export function backgroundWorkSettled(): Promise<void> {
  return state.background;
}

function initialState(): FlowState {
  return {
    redirect: undefined,
    twoFactorRecovery: undefined,
    interactiveKEK: undefined,
    background: Promise.resolve(),
  };
}
