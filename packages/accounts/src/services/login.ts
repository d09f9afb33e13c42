// Login (docs/protocol.md#login): the e-mail step of /login, and /credentials, which signs in with the
// password by SRP (docs/protocol.md#srp-login), unlocks a returning tab from the local key attributes,
// or picks up the KEK stashed before the second factor. See: [Note: One Argon2id run per sign-in]
import { cryptoWorker } from '@ente/crypto/client.ts';
import { errorCodeOf } from '@ente/shared/failure.ts';
import {
  removeKeyEncryptionKeyStash,
  savedKeyAttributes,
  savedSrpAttributes,
  saveSrpAttributes,
} from '@ente/shared/storage/account-storage.ts';
import { savedUser, saveUser } from '@ente/shared/storage/local-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import { AccountsError, toAccountsError } from './errors.ts';
import { peekRedirect, takeRedirect } from './flow-state.ts';
import { homeRoute } from './home.ts';
import { signedInRedirect } from './session.ts';
import {
  acceptVerification,
  during,
  flowEmail,
  forgetPreviousSignIn,
  loadRemote,
  normalizeEmail,
  unlockWithKEK,
} from './steps.ts';
import { hasStashedKEK, isUnlockedInThisTab, takeStashedKEK } from './storage.ts';

/**
 * The e-mail step of /login: an account with SRP and without e-mail MFA → `/credentials` (password);
 * otherwise (no SRP attributes, or e-mail MFA on) an e-mail code is sent → `/verify`. Errors:
 * `notRegistered`, `signupIncomplete`, `rateLimited`, `network`, `server`.
 */
export async function startLogin(email: string): Promise<string> {
  const address = normalizeEmail(email);
  const remote = await loadRemote();
  const srpAttributes = await during('sendCode', () => remote.getSrpAttributes(address));
  if (!srpAttributes || srpAttributes.isEmailMFAEnabled) {
    await during('sendCode', () => remote.sendOtt(address, 'login'));
    forgetPreviousSignIn();
    await saveUser({ email: address });
    return '/verify';
  }
  forgetPreviousSignIn();
  await saveUser({ email: address });
  saveSrpAttributes(srpAttributes);
  return '/credentials';
}

/** Loads the requests while the address is being typed, so that submitting it asks the server at once. */
export function prepareLogin(): void {
  loadRemote().catch(() => undefined);
}

/**
 * Loads what the password step needs (the crypto worker with libsodium, the requests) while the
 * password is being typed, so that submitting starts the derivation at once. Failures are left to the
 * submission, which tries again and reports them.
 */
export function prepareForPassword(): void {
  cryptoWorker()
    .then((crypto) => crypto.prepare())
    .catch(() => undefined);
  loadRemote().catch(() => undefined);
}

/**
 * What /credentials does:
 * - `srp`: ask the password and sign in by SRP (after /login);
 * - `unlock`: ask the password and open the local key attributes (after an e-mail code, or a
 *   returning tab);
 * - `stashed`: no password; call `resumeWithStashedKEK()` (back from the second factor);
 * - `none`: nothing to do here; go to `credentialsRedirect()`.
 */
export type CredentialsMode = 'srp' | 'unlock' | 'stashed' | 'none';

export function credentialsMode(): CredentialsMode {
  const user = savedUser();
  if (!user?.email) return 'none';
  const keyAttributes = savedKeyAttributes();
  const hasToken = !!user.token || !!user.encryptedToken;
  if (keyAttributes && hasToken) {
    if (isLoggedIn() && isUnlockedInThisTab()) return 'none';
    return hasStashedKEK() ? 'stashed' : 'unlock';
  }
  if (!keyAttributes && !hasToken && savedSrpAttributes()) return 'srp';
  return 'none';
}

/**
 * Where /credentials sends a visitor in mode `none`: the second factor still waiting, the remembered
 * redirect or home when this tab is unlocked, `/generate` for an account without keys, else `/login`.
 */
export function credentialsRedirect(): string {
  const user = savedUser();
  if (user?.twoFactorSessionID && !user.encryptedToken && !user.token) return '/two-factor/verify';
  const signedIn = signedInRedirect();
  if (signedIn === homeRoute()) return peekRedirect() ?? signedIn;
  return signedIn ?? '/login';
}

/**
 * The password of /credentials (docs/protocol.md#login step 3). One Argon2id run, then:
 * - mode `srp`: SRP login with M2 checked → home (or the remembered redirect), or
 *   `/two-factor/verify` or the accounts app's passkey check with the KEK stashed; an account that turned e-mail MFA on meanwhile gets a
 *   code → `/verify`;
 * - mode `unlock`: the KEK from the local attributes → home (or the remembered redirect).
 * Errors: `incorrectPassword`, `tooManyAttempts`, `kdfUnsupported`,
 * `serverNotAuthentic`, `rateLimited`, `sessionExpired` (nothing to sign in to), `network`, `server`.
 */
export async function submitPassword(password: string): Promise<string> {
  switch (credentialsMode()) {
    case 'srp':
      return srpLogin(password);
    case 'unlock':
    case 'stashed':
      return unlock(password);
    case 'none':
      if (isLoggedIn() && isUnlockedInThisTab()) return takeRedirect() ?? homeRoute();
      throw new AccountsError('sessionExpired');
  }
}

/**
 * Back from the second factor after an SRP login: the KEK stashed in session storage (removed as it
 * is read) opens the account, so the password is not asked again → home (or the remembered redirect).
 * Without a stashed KEK → AccountsError `sessionExpired` (the page asks for the password instead).
 */
export async function resumeWithStashedKEK(): Promise<string> {
  const keyAttributes = savedKeyAttributes();
  const kek = await takeStashedKEK();
  if (!kek || !keyAttributes) throw new AccountsError('sessionExpired');
  return during(undefined, () => unlockWithKEK(kek, keyAttributes));
}

async function srpLogin(password: string): Promise<string> {
  const email = flowEmail();
  const srp = savedSrpAttributes();
  if (!srp) throw new AccountsError('sessionExpired');
  const crypto = await cryptoWorker();
  const remote = await loadRemote();
  const { srpUserID, srpSalt } = srp;
  // A and the server's B do not depend on the password: the SRP session is opened while the KEK is
  // derived, and only the proof waits for it.
  const { handle, srpA } = await during('srpLogin', () => crypto.srpClientStart({ srpUserID, srpSalt }));
  const opening = remote.createSrpSession(srpUserID, srpA);
  opening.catch(() => undefined); // awaited below, once the KEK is there
  const kek = await during('srpLogin', () => crypto.deriveKEK(password, srp));
  let session: Awaited<typeof opening>;
  try {
    session = await opening;
  } catch (e) {
    if (errorCodeOf(e) !== 'EMAIL_MFA_ENABLED') throw toAccountsError(e, 'srpLogin');
    // E-mail MFA was turned on since the attributes were fetched: sign in with a code instead.
    await during('sendCode', () => remote.sendOtt(email, 'login'));
    return '/verify';
  }
  const answer = await during('srpLogin', async () => {
    const srpM1 = await crypto.srpClientProof(handle, session.srpB, { kek });
    return remote.verifySrpSession(session.sessionID, srpUserID, srpM1);
  });
  const authentic = answer.srpM2 !== undefined && (await crypto.srpClientVerify(handle, answer.srpM2));
  if (!authentic) throw new AccountsError('serverNotAuthentic');
  return during(undefined, () => acceptVerification(answer, email, { kek, password }));
}

async function unlock(password: string): Promise<string> {
  const keyAttributes = savedKeyAttributes();
  if (!keyAttributes) throw new AccountsError('sessionExpired');
  const crypto = await cryptoWorker();
  const kek = await during('srpLogin', () => crypto.deriveKEK(password, keyAttributes));
  // A password typed while a KEK waited (the page asked anyway) makes the stashed one useless.
  removeKeyEncryptionKeyStash();
  return during(undefined, () => unlockWithKEK(kek, keyAttributes, password));
}
