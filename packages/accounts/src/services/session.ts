// Who is signed in, where a signed-in visitor of a sign-in page belongs, and the session validity
// check (docs/protocol.md#account): a 401 means the session ended elsewhere, a changed `kekSalt` means
// the password was changed on another device, and an account without key attributes whose sign-up
// began here gets them uploaded again.
import { log } from '@ente/shared/log.ts';
import {
  savedKeyAttributes,
  savedOriginalKeyAttributes,
  savedSrpAttributes,
  saveIsFirstLogin,
  saveKeyAttributes,
  saveOriginalKeyAttributes,
  saveSrpAttributes,
} from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import { toAccountsError } from './errors.ts';
import { homeRoute } from './home.ts';
import { keyAttributesForUpload, loadRemote } from './steps.ts';
import { isUnlockedInThisTab } from './storage.ts';

export { isUnlockedInThisTab } from './storage.ts';

/** Signed in: the user record has an id, an e-mail and a token (synchronous). */
export function isSignedIn(): boolean {
  return isLoggedIn();
}

/** Signed in and the masterKey is open in this tab: the app's pages can decrypt. */
export function isSignedInAndUnlocked(): boolean {
  return isLoggedIn() && isUnlockedInThisTab() && savedKeyAttributes() !== undefined;
}

/**
 * Where a signed-in visitor of /login or /signup goes instead: home when unlocked here, `/generate`
 * when the account still has no keys, `/credentials` to unlock this tab. Undefined when signed out.
 */
export function signedInRedirect(): string | undefined {
  if (!isLoggedIn()) return undefined;
  if (!savedKeyAttributes()) return '/generate';
  return isUnlockedInThisTab() ? homeRoute() : '/credentials';
}

/**
 * - `valid`: nothing to do;
 * - `expired`: 401, the session ended elsewhere (show "session expired", whose only action is logout);
 * - `passwordChanged`: the password was changed on another device; the server's key and SRP attributes
 *   replaced the local ones and `isFirstLogin` is set, so the caller reloads;
 * - `keysMissing`: the account has no key attributes and none wait here (the caller may go to
 *   `/generate`).
 */
export type SessionValidity = 'valid' | 'expired' | 'passwordChanged' | 'keysMissing';

/**
 * The session validity check of docs/protocol.md#account. Other failures (offline, a server error)
 * throw AccountsError, which the caller may ignore until the next check.
 */
export async function checkSessionValidity(): Promise<SessionValidity> {
  const remote = await loadRemote();
  let answer: Awaited<ReturnType<typeof remote.getSessionValidity>>;
  try {
    answer = await remote.getSessionValidity();
  } catch (e) {
    const error = toAccountsError(e, 'session');
    if (error.kind === 'sessionExpired') return 'expired';
    throw error;
  }
  try {
    if (!answer.hasSetKeys) {
      const original = savedOriginalKeyAttributes();
      if (!original) return 'keysMissing';
      log.info('Uploading the key attributes of an interrupted sign-up again');
      await remote.putKeyAttributes(keyAttributesForUpload(original));
      return 'valid';
    }
    const email = savedUser()?.email;
    if (!answer.keyAttributes || !email) return 'valid';
    const srpAttributes = await remote.getSrpAttributes(email);
    if (!srpAttributes) return 'valid';
    const local = savedSrpAttributes();
    if (!local) {
      saveSrpAttributes(srpAttributes);
      return 'valid';
    }
    if (local.kekSalt === srpAttributes.kekSalt) return 'valid';
    log.info('The password was changed on another device');
    saveKeyAttributes(answer.keyAttributes);
    saveOriginalKeyAttributes(answer.keyAttributes);
    saveSrpAttributes(srpAttributes);
    saveIsFirstLogin();
    return 'passwordChanged';
  } catch (e) {
    const error = toAccountsError(e, 'session');
    if (error.kind === 'sessionExpired') return 'expired';
    throw error;
  }
}
