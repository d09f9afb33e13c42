// Changing the account's e-mail address (docs/protocol.md#change-e-mail): a code is sent to the NEW
// address with purpose `change`, and that code moves the account there.
import { email as emailSchema } from '@ente/protocol/common.ts';
import { appName } from '@ente/shared/app-name.ts';
import { post } from '@ente/shared/http.ts';
import { updateSavedUser } from '@ente/shared/storage/local-storage.ts';

import { toAccountsError } from './errors.ts';

/**
 * The address as the server will keep it (trimmed, lower-cased), or undefined when it is not one
 * (docs/protocol.md#conventions).
 */
export function normalisedEmail(text: string): string | undefined {
  const parsed = emailSchema.safeParse(text);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Sends a code to `newEmail` with purpose `change`. Throws AccountsError: `emailTaken` (403), the
 * rate limits, `network`, `server`.
 */
export async function sendChangeEmailCode(newEmail: string): Promise<void> {
  try {
    await post('/users/ott', { email: newEmail, purpose: 'change', client: appName() === 'auth' ? 'totp' : 'web' });
  } catch (e) {
    throw toAccountsError(e, 'sendChangeCode');
  }
}

/**
 * Moves the account to `newEmail` with the code sent there, then keeps the new address in the stored
 * user record. Throws AccountsError: `wrongCode` (401), `expiredCode` (410), `emailTaken` (403),
 * `tooManyAttempts` (429), `sessionExpired`, `network`, `server`.
 */
export async function changeEmail(newEmail: string, code: string): Promise<void> {
  try {
    await post('/users/change-email', { email: newEmail, ott: code }, { auth: true });
  } catch (e) {
    throw toAccountsError(e, 'changeEmail');
  }
  await updateSavedUser({ email: newEmail });
}
