// What the accounts app's passkey pages say about a failure: keys of the `passkeys` namespace.
import { limits } from '@ente/protocol/limits.ts';
import { passkeyName } from '@ente/protocol/passkeys.ts';

export type PasskeyProblem =
  'no_token' | 'expired' | 'load_failed' | 'add_failed' | 'add_exists' | 'add_max' | 'unsupported' | 'failed';

/** The problem a failed request or WebAuthn call stands for, `fallback` when nothing more specific. */
export function passkeyProblem(e: unknown, fallback: PasskeyProblem): PasskeyProblem {
  const fields = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
  // The management token is over (30 minutes) or was never valid: the token check's 401 `{error}`.
  if (fields.httpStatus === 401) return 'expired';
  if (fields.errCode === 'MAX_PASSKEYS_REACHED') return 'add_max';
  // The authenticator already holds a credential of this account (excludeCredentials).
  if (fields.name === 'InvalidStateError') return 'add_exists';
  if (fields.name === 'NotSupportedError') return 'unsupported';
  return fallback;
}

/** Why a passkey name cannot be used, or undefined when it can (the server's rule, said first here). */
export function nameProblem(name: string): 'name_required' | 'name_too_long' | 'name_invalid' | undefined {
  if (name === '') return 'name_required';
  if (new TextEncoder().encode(name).length > limits.maxPasskeyNameBytes) return 'name_too_long';
  return passkeyName.safeParse(name).success ? undefined : 'name_invalid';
}
