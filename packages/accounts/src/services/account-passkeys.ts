// The way from an app's settings to the accounts app's passkey page (docs/protocol.md#passkeys). Before
// a first passkey can lock the person out, passkey recovery is set up: a random secret that the server
// keeps (as a keyed hash) and the account keeps too, encrypted under the recovery key, so that the
// recovery key alone can sign in without the passkey. Then a 30-minute token that only manages
// passkeys opens the accounts app's /passkeys.
import { cryptoWorker } from '@ente/crypto/client.ts';
import {
  accountsTokenResponseSchema,
  recoveryStatusResponseSchema,
  type AccountsTokenResponse,
} from '@ente/protocol/passkeys.ts';
import { getJSON, post } from '@ente/shared/http.ts';

import { recoveryKeyOf } from './account-recovery-key.ts';
import { AccountsError, toAccountsError } from './errors.ts';
import { masterKeyOfThisTab } from './storage.ts';

/**
 * The address of the accounts app's passkey page for this account (`/passkeys#token=…`), passkey recovery
 * configured first.
 * Errors: `sessionExpired` (signed out, or locked in this tab), `rateLimited`, `network`, `server`.
 */
export async function passkeysPageURL(): Promise<string> {
  const { accountsToken, accountsUrl } = await passkeyManagementToken();
  try {
    const url = new URL('/passkeys', accountsUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AccountsError('server');
    // In the fragment, which no request carries: the accounts app reads it and clears the address at once.
    url.hash = new URLSearchParams({ token: accountsToken }).toString();
    return url.href;
  } catch (e) {
    throw toAccountsError(e, 'session');
  }
}

/**
 * A passkey management token of this session (the accounts app asks for one itself when the person
 * signed in there), passkey recovery configured first. Errors as `passkeysPageURL`.
 */
export async function passkeyManagementToken(): Promise<AccountsTokenResponse> {
  try {
    await configurePasskeyRecoveryIfMissing();
    return await getJSON('/users/accounts-token', accountsTokenResponseSchema, { auth: true });
  } catch (e) {
    throw toAccountsError(e, 'session');
  }
}

/** Configures passkey recovery (a secret sealed with the recovery key) unless the account has it already. */
async function configurePasskeyRecoveryIfMissing(): Promise<void> {
  const status = await getJSON('/users/two-factor/recovery-status', recoveryStatusResponseSchema, { auth: true });
  if (status.isPasskeyRecoveryEnabled) return;
  const masterKey = await masterKeyOfThisTab();
  if (!masterKey) throw new AccountsError('sessionExpired');
  const recoveryKey = await recoveryKeyOf(masterKey);
  const crypto = await cryptoWorker();
  const secret = await crypto.generateKey();
  const box = await crypto.encryptBox(secret, recoveryKey);
  await post(
    '/users/two-factor/passkeys/configure-recovery',
    { secret, userSecretCipher: box.encryptedData, userSecretNonce: box.nonce },
    { auth: true },
  );
}
