// The second factor at sign-in (docs/protocol.md#two-factor, docs/protocol.md#login step 4) and its
// recovery with the recovery key (docs/protocol.md#lost-second-factor), for TOTP and passkeys alike. Turning two-factor on and off
// from the settings is account-two-factor.ts.
import { cryptoWorker } from '@ente/crypto/client.ts';
import type { TwoFactorType } from '@ente/protocol/two-factor.ts';
import { removeInflightPasskeySessionID } from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsError } from './errors.ts';
import { savedTwoFactorRecovery, setTwoFactorRecovery, takeRedirect, type TwoFactorRecovery } from './flow-state.ts';
import { during, loadRemote, normalizeCode } from './steps.ts';
import { acceptTwoFactorAnswer } from './user-record.ts';

/**
 * Checks the TOTP code → `/credentials` (or the remembered redirect), where a KEK stashed by an SRP
 * login is used instead of asking for the password again. Errors: `wrongCode`, `tooManyAttempts`,
 * `sessionExpired` (the two-factor session is unknown or over: log out), `rateLimited`, `network`,
 * `server`.
 */
export async function verifyTwoFactor(code: string): Promise<string> {
  const sessionID = secondFactorSessionID('totp');
  const remote = await loadRemote();
  const answer = await during('twoFactorVerify', () => remote.verifyTwoFactor(sessionID, normalizeCode(code)));
  await during(undefined, () => acceptTwoFactorAnswer(answer, ['token', 'twoFactorSessionID']));
  return takeRedirect() ?? '/credentials';
}

/**
 * The first step of /two-factor/recover and /passkeys/recover: fetches the secret the account stored
 * for that second factor, encrypted under the recovery key, and keeps it in memory for
 * `recoverTwoFactor`. Errors: `twoFactorRecoveryUnavailable` (no secret stored, or the session is over:
 * "contact support"), `sessionExpired`, `rateLimited`, `network`, `server`.
 */
export async function recoverTwoFactorStart(kind: TwoFactorType = 'totp'): Promise<void> {
  const sessionID = secondFactorSessionID(kind);
  const remote = await loadRemote();
  const answer = await during('twoFactorRecover', () => remote.getTwoFactorRecovery(sessionID, kind));
  setTwoFactorRecovery({ sessionID, ...answer });
}

/**
 * Signs in without the second factor, with the recovery key (words or hex): opens the secret, sends it
 * back, and is signed in as after a TOTP code → `/credentials` (or the remembered redirect). For TOTP
 * the server turns two-factor off; passkeys stay (the person removes a lost one at /passkeys). Errors:
 * `recoveryKeyWordCount`, `recoveryKeyUnknownWord`, `recoveryKeyChecksum`, `recoveryKeyInvalid`,
 * `wrongRecoveryKey`, `twoFactorRecoveryUnavailable`, `sessionExpired`, `tooManyAttempts`,
 * `rateLimited`, `network`, `server`.
 */
export async function recoverTwoFactor(recoveryText: string, kind: TwoFactorType = 'totp'): Promise<string> {
  const sessionID = secondFactorSessionID(kind);
  const recovery = await encryptedSecret(sessionID, kind);
  const crypto = await cryptoWorker();
  const secret = await during('recoveryKey', async () => {
    const recoveryKey = await crypto.recoveryKeyFromInput(recoveryText);
    return crypto.decryptTwoFactorSecret(recovery.encryptedSecret, recovery.secretDecryptionNonce, recoveryKey);
  });
  const remote = await loadRemote();
  const answer = await during('twoFactorRemove', () => remote.removeTwoFactor(sessionID, secret, kind));
  setTwoFactorRecovery(undefined);
  removeInflightPasskeySessionID();
  await during(undefined, () =>
    acceptTwoFactorAnswer(answer, ['token', 'twoFactorSessionID', 'isTwoFactorEnabled', 'passkeySessionID']),
  );
  return takeRedirect() ?? '/credentials';
}

/** The session of the second factor being recovered, from `user`. */
export function secondFactorSessionID(kind: TwoFactorType): string {
  const user = savedUser();
  const sessionID = kind === 'passkey' ? user?.passkeySessionID : user?.twoFactorSessionID;
  if (!sessionID) throw new AccountsError('sessionExpired');
  return sessionID;
}

async function encryptedSecret(sessionID: string, kind: TwoFactorType): Promise<TwoFactorRecovery> {
  const kept = savedTwoFactorRecovery();
  if (kept?.sessionID === sessionID) return kept;
  await recoverTwoFactorStart(kind);
  const fetched = savedTwoFactorRecovery();
  if (!fetched) throw new AccountsError('unknown');
  return fetched;
}
