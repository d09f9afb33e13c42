// Forgotten password (docs/protocol.md#forgot-password): /recover first makes sure the account's
// sealed token and key attributes are here (an e-mail code, then any second factor, with `/recover`
// remembered as where to come back), then opens the masterKey with the recovery key and hands over to
// `/change-password?op=reset` (account-password.ts), with the masterKey in session storage.
import { cryptoWorker } from '@ente/crypto/client.ts';
import { savedKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsError } from './errors.ts';
import { rememberRedirect, takeRedirect } from './flow-state.ts';
import { during, loadRemote } from './steps.ts';
import { saveMasterKeyOfThisTab } from './storage.ts';
import { saveUserWithout } from './user-record.ts';

/** Where /recover goes after a reset: the new password is set there. */
export const resetPasswordRoute = '/change-password?op=reset';

/**
 * Called when /recover opens. Undefined when the page can ask for the recovery key now; otherwise the
 * route to go to: `/verify` after sending a code (no purpose) with `/recover` remembered, or `/login`
 * when there is no address to recover. Errors: `rateLimited`, `network`, `server`.
 */
export async function startAccountRecovery(): Promise<string | undefined> {
  const user = savedUser();
  if (!user?.email) return '/login';
  if ((user.token || user.encryptedToken) && savedKeyAttributes()) return undefined;
  const email = user.email;
  const remote = await loadRemote();
  await during('sendCode', () => remote.sendOtt(email, undefined));
  rememberRedirect('/recover');
  return '/verify';
}

/**
 * Opens the masterKey with the recovery key (24 words or 64 hex characters), keeps it for this tab,
 * opens the sealed token → `/change-password?op=reset`. Errors: `recoveryKeyWordCount`,
 * `recoveryKeyUnknownWord`, `recoveryKeyChecksum`, `recoveryKeyInvalid`, `wrongRecoveryKey`,
 * `sessionExpired`.
 */
export async function recoverAccount(recoveryText: string): Promise<string> {
  const keyAttributes = savedKeyAttributes();
  const user = savedUser();
  if (!keyAttributes || !user?.email) throw new AccountsError('sessionExpired');
  const crypto = await cryptoWorker();
  const masterKey = await during('recoveryKey', async () =>
    crypto.masterKeyFromRecoveryKey(await crypto.recoveryKeyFromInput(recoveryText), keyAttributes),
  );
  await during(undefined, async () => {
    await saveMasterKeyOfThisTab(masterKey);
    const encryptedToken = user.encryptedToken;
    if (encryptedToken) {
      const token = await crypto.openToken(encryptedToken, keyAttributes, masterKey);
      await saveUserWithout({ token }, ['encryptedToken']);
    }
  });
  takeRedirect();
  return resetPasswordRoute;
}
