// Sign-up (docs/protocol.md#sign-up) and the /generate page's flows: the interrupted sign-up that still
// needs a password, and the recovery key shown once after sign-up. The e-mail check in between is
// verify.ts; what its answer leads to is steps.ts.
import { cryptoWorker } from '@ente/crypto/client.ts';
import { log } from '@ente/shared/log.ts';
import {
  removeJustSignedUp,
  savedJustSignedUp,
  savedKeyAttributes,
  saveJustSignedUp,
  saveKeyAttributes,
  saveOriginalKeyAttributes,
  saveReferralSource,
  saveSrpSetupAttributes,
} from '@ente/shared/storage/account-storage.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import { AccountsError } from './errors.ts';
import { homeRoute } from './home.ts';
import { signedInRedirect } from './session.ts';
import {
  during,
  fetchAndSaveSrpAttributes,
  flowEmail,
  forgetPreviousSignIn,
  keyAttributesForUpload,
  loadRemote,
  makeInteractiveAttributesLater,
  normalizeEmail,
  registerSrpVerifier,
} from './steps.ts';
import { isUnlockedInThisTab, masterKeyOfThisTab, saveMasterKeyOfThisTab } from './storage.ts';

export interface SignUpInput {
  email: string;
  /** Already checked by the form (length, confirmation). */
  password: string;
  /** The optional referral; trimmed, it is sent as `source: "web:<referral>"` at verification. */
  referral?: string;
}

/**
 * Sends the sign-up code and makes the keys (docs/protocol.md#sign-up, steps 2–4) → `/verify`.
 * The keys are generated (one sensitive Argon2id run, in the worker) while the code is being sent;
 * nothing is saved unless the server accepted the address. The interactive attributes follow in the
 * background. Errors: `alreadyRegistered`, `registrationDisabled`, `rateLimited`, `insufficientMemory`,
 * `network`, `server`.
 */
export async function signUp({ email, password, referral }: SignUpInput): Promise<string> {
  const address = normalizeEmail(email);
  const crypto = await cryptoWorker();
  const generating = crypto.generateKeyAttributes(password);
  // If the code cannot be sent, the keys are dropped; their failure must not go unhandled meanwhile.
  generating.catch(() => undefined);
  const remote = await loadRemote();
  await during('sendCode', () => remote.sendOtt(address, 'signup'));
  const generated = await during(undefined, () => generating);
  forgetPreviousSignIn();
  await saveUser({ email: address });
  const source = referral?.trim();
  if (source) saveReferralSource(source);
  saveOriginalKeyAttributes(generated.keyAttributes);
  saveSrpSetupAttributes(generated.srpSetupAttributes);
  saveKeyAttributes(generated.keyAttributes);
  await saveMasterKeyOfThisTab(generated.masterKey);
  saveJustSignedUp();
  const saved = savedKeyAttributes();
  if (saved) makeInteractiveAttributesLater(saved, generated.masterKey, password);
  return '/verify';
}

/** What /generate shows: the recovery key after sign-up, a password form for an unfinished sign-up, or nothing. */
export type GenerateMode = 'recoveryKey' | 'password' | 'none';

export function generateMode(): GenerateMode {
  if (!isLoggedIn()) return 'none';
  if (!savedKeyAttributes()) return 'password';
  return savedJustSignedUp() && isUnlockedInThisTab() ? 'recoveryKey' : 'none';
}

/** Where /generate sends a visitor it has nothing to show (mode `none`). */
export function generateRedirect(): string {
  return signedInRedirect() ?? '/login';
}

/**
 * For an account with a token but no keys (a sign-up interrupted after the e-mail check, or begun
 * elsewhere, docs/protocol.md#sign-up step 6): makes the keys from `password`, uploads them, registers
 * the SRP verifier → `/generate`, which now shows the recovery key. Errors: `insufficientMemory`,
 * `sessionExpired`, `network`, `server`, `unknown` (the account got keys meanwhile).
 */
export async function finishInterruptedSignUp(password: string): Promise<string> {
  if (!isLoggedIn()) throw new AccountsError('sessionExpired');
  const email = flowEmail();
  const [crypto, remote] = await Promise.all([cryptoWorker(), loadRemote()]);
  const generated = await during(undefined, () => crypto.generateKeyAttributes(password));
  await during('session', () => remote.putKeyAttributes(keyAttributesForUpload(generated.keyAttributes)));
  saveOriginalKeyAttributes(generated.keyAttributes);
  saveKeyAttributes(generated.keyAttributes);
  await saveMasterKeyOfThisTab(generated.masterKey);
  saveJustSignedUp();
  try {
    await registerSrpVerifier(generated.srpSetupAttributes, { kek: generated.kek });
  } catch (e) {
    log.error('Could not register the SRP verifier after an interrupted sign-up', e);
  }
  await fetchAndSaveSrpAttributes(email);
  const saved = savedKeyAttributes();
  if (saved) makeInteractiveAttributesLater(saved, generated.masterKey, password);
  return '/generate';
}

/** The recovery key of the account unlocked in this tab, as 24 words separated by single spaces. */
export async function recoveryKeyWordsOfThisTab(): Promise<string> {
  const masterKey = await masterKeyOfThisTab();
  const keyAttributes = savedKeyAttributes();
  if (!masterKey || !keyAttributes) throw new AccountsError('sessionExpired');
  const crypto = await cryptoWorker();
  return during(undefined, async () =>
    crypto.recoveryKeyToWords(await crypto.recoveryKeyFromMasterKey(masterKey, keyAttributes)),
  );
}

/** The user has saved the recovery key → the app's home. */
export function acknowledgeRecoveryKey(): string {
  removeJustSignedUp();
  return homeRoute();
}
