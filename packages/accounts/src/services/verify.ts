// The e-mail code step (/verify) of sign-up, login and forgotten password (docs/protocol.md#e-mail-codes,
// docs/protocol.md#login step 2): resend the code, check it, and follow the verification answer.
import { removeReferralSource, savedReferralSource } from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { acceptVerification, during, flowEmail, loadRemote, normalizeCode } from './steps.ts';

/** The address the code was sent to (for the page's text); undefined when no flow is under way. */
export function codeRecipient(): string | undefined {
  return savedUser()?.email;
}

/**
 * Sends a new code to the same address, with no purpose (docs/protocol.md#e-mail-codes). Errors:
 * `rateLimited`, `sessionExpired` (no address: start again), `network`, `server`.
 */
export async function resendCode(): Promise<void> {
  const email = flowEmail();
  const remote = await loadRemote();
  await during('sendCode', () => remote.sendOtt(email, undefined));
}

/**
 * Checks the e-mail code and follows the answer (steps.ts `acceptVerification`): → `/generate` after
 * sign-up, `/two-factor/verify`, the accounts app's passkey check, `/credentials` or the remembered redirect (e.g. `/recover`). Errors:
 * `wrongCode`, `expiredCode`, `tooManyAttempts`, `registrationDisabled`,
 * `sessionExpired`, `rateLimited`, `network`, `server`.
 */
export async function verifyEmail(code: string): Promise<string> {
  const email = flowEmail();
  const referral = savedReferralSource();
  const remote = await loadRemote();
  const answer = await during('verifyCode', () =>
    remote.verifyEmail(email, normalizeCode(code), referral ? `web:${referral}` : undefined),
  );
  if (referral) removeReferralSource();
  return during(undefined, () => acceptVerification(answer, email, {}));
}
