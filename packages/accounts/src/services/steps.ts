// The steps several sign-in flows share (docs/protocol.md#client-flows): what a verification answer
// leads to, unlocking with a KEK (masterKey, token, SRP attributes, interactive attributes), and
// registering an SRP verifier. Not for pages: they call the flows (sign-up.ts, login.ts, verify.ts,
// two-factor.ts, recover.ts). See: [Note: One Argon2id run per sign-in]
//
// [Note: One Argon2id run per sign-in]
// A password sign-in runs exactly one derivation before the user lands home: the KEK with the
// server's parameters (SRP login), or with the local attributes (unlocking again). The masterKey is
// opened with that same KEK. The local interactive attributes (docs/protocol.md#interactive-key-attributes)
// are made afterwards, in the background: the server's attributes are saved as the local
// `keyAttributes` first, so a tab closed early still unlocks (slowly), and are replaced by the
// interactive ones once that derivation has finished, unless something else replaced them meanwhile.
// When the login goes through a second factor, the interactive KEK is derived while the user is at
// that step (the password is not kept) and only wraps the masterKey once it opens.
import { cryptoWorker } from '@ente/crypto/client.ts';
import type { KeyAttributes } from '@ente/protocol/key-attributes.ts';
import { log } from '@ente/shared/log.ts';
import {
  clearSessionStorage,
  removeIsFirstLogin,
  removeJustSignedUp,
  removeKeyAttributes,
  removeOriginalKeyAttributes,
  removeReferralSource,
  removeSrpAttributes,
  removeSrpSetupAttributes,
  savedKeyAttributes,
  savedOriginalKeyAttributes,
  savedSrpAttributes,
  savedSrpSetupAttributes,
  saveIsFirstLogin,
  saveKeyAttributes,
  saveOriginalKeyAttributes,
  saveSrpAttributes,
  type KeyAttributesToSave,
  type StoredKeyAttributes,
} from '@ente/shared/storage/account-storage.ts';
import { savedUser, saveUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsError, toAccountsError, type ErrorContext } from './errors.ts';
import {
  queueBackgroundWork,
  resetFlowState,
  setPendingInteractiveKEK,
  takePendingInteractiveKEK,
  takeRedirect,
  type InteractiveKEK,
} from './flow-state.ts';
import { homeRoute } from './home.ts';
import type { EmailAuthorizationResponse } from './remote.ts';
import { saveMasterKeyOfThisTab, stashKEK } from './storage.ts';
import { saveUserWithout } from './user-record.ts';

/** The requests, loaded on first use (they bring the HTTP client and zod). */
export const loadRemote = () => import('./remote.ts');

/** The Argon2id parameters of interactive attributes (docs/protocol.md#interactive-key-attributes). */
export const interactiveOpsLimit = 2;
export const interactiveMemLimit = 67108864;

/** Trimmed and lower-cased, as both sides treat addresses (docs/protocol.md#conventions). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A six-digit code with all whitespace removed (docs/protocol.md#conventions). */
export function normalizeCode(code: string): string {
  return code.replace(/\s/g, '');
}

/** The e-mail address the flow under way is for; without one the flow must start again. */
export function flowEmail(): string {
  const email = savedUser()?.email;
  if (!email) throw new AccountsError('sessionExpired');
  return email;
}

/** Runs `step`, turning any failure into an AccountsError of `context`. */
export async function during<T>(context: ErrorContext | undefined, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    throw toAccountsError(e, context);
  }
}

/** Local attributes made with the interactive parameters are never the server's (it refuses them). */
export function isInteractive(keyAttributes: { opsLimit: number; memLimit: number }): boolean {
  return keyAttributes.opsLimit === interactiveOpsLimit && keyAttributes.memLimit === interactiveMemLimit;
}

/** The thirteen fields of docs/protocol.md#key-attributes, for an upload. */
export function keyAttributesForUpload(keyAttributes: KeyAttributesToSave): KeyAttributes {
  const upload: KeyAttributes = {
    kekSalt: keyAttributes.kekSalt,
    opsLimit: keyAttributes.opsLimit,
    memLimit: keyAttributes.memLimit,
    encryptedKey: keyAttributes.encryptedKey,
    keyDecryptionNonce: keyAttributes.keyDecryptionNonce,
    publicKey: keyAttributes.publicKey,
    encryptedSecretKey: keyAttributes.encryptedSecretKey,
    secretKeyDecryptionNonce: keyAttributes.secretKeyDecryptionNonce,
  };
  for (const field of [
    'masterKeyEncryptedWithRecoveryKey',
    'masterKeyDecryptionNonce',
    'recoveryKeyEncryptedWithMasterKey',
    'recoveryKeyDecryptionNonce',
    'kekHash',
  ] as const) {
    const value = keyAttributes[field];
    if (typeof value === 'string') upload[field] = value;
  }
  return upload;
}

/**
 * Forgets what an earlier, unfinished sign-in or sign-up left in this browser (another account's
 * attributes, a stashed key, a remembered redirect), before a new one starts. The user record is
 * replaced by the caller.
 */
export function forgetPreviousSignIn(): void {
  removeKeyAttributes();
  removeOriginalKeyAttributes();
  removeSrpSetupAttributes();
  removeSrpAttributes();
  removeIsFirstLogin();
  removeJustSignedUp();
  removeReferralSource();
  clearSessionStorage();
  resetFlowState();
}

/** How a verification answer was obtained: by SRP (with the KEK and the password) or by e-mail code. */
export interface VerifiedBy {
  kek?: string;
  password?: string;
}

/**
 * What a verification answer (docs/protocol.md#verification-success) leads to; returns the next route.
 * A second factor: the sessions are kept in `user` (and a KEK from an SRP login in session storage, so
 * that the password need not be typed again); a passkey alone → the accounts app's check (an absolute
 * URL, docs/protocol.md#passkeys); a TOTP session (also the V2 one), with or without a passkey →
 * `/two-factor/verify`, which offers the passkey too when there is one. A plain token (sign-up
 * unfinished) → the sign-up is completed → `/generate`; keys and a sealed token → unlocked at once
 * after SRP, else `/credentials` (or the remembered redirect).
 */
export async function acceptVerification(
  answer: EmailAuthorizationResponse,
  email: string,
  by: VerifiedBy,
): Promise<string> {
  const twoFactorSessionID = answer.twoFactorSessionID || answer.twoFactorSessionIDV2 || undefined;
  const passkeySessionID = answer.passkeySessionID || undefined;
  if (twoFactorSessionID || passkeySessionID) {
    await saveUser({
      email,
      isTwoFactorEnabled: true,
      ...(twoFactorSessionID && { twoFactorSessionID }),
      ...(passkeySessionID && { passkeySessionID }),
    });
    saveIsFirstLogin();
    clearSessionStorage();
    if (passkeySessionID) (await import('./passkeys.ts')).keepPasskeyAccountsUrl(answer.accountsUrl);
    if (by.kek !== undefined) {
      await stashKEK(by.kek);
      if (by.password !== undefined) deriveInteractiveKEKAhead(by.password);
    }
    if (twoFactorSessionID) return '/two-factor/verify';
    return (await import('./passkeys.ts')).passkeyVerificationURL();
  }
  if (answer.token) {
    await saveUser({ id: answer.id, email, token: answer.token });
    return completeSignUp();
  }
  if (answer.encryptedToken && answer.keyAttributes) {
    await saveUser({ id: answer.id, email, encryptedToken: answer.encryptedToken });
    saveKeyAttributes(answer.keyAttributes);
    saveOriginalKeyAttributes(answer.keyAttributes);
    saveIsFirstLogin();
    clearSessionStorage();
    if (by.kek === undefined) return takeRedirect() ?? '/credentials';
    const keyAttributes = savedKeyAttributes();
    if (!keyAttributes) throw new AccountsError('unknown');
    return unlockWithKEK(by.kek, keyAttributes, by.password);
  }
  log.error('A verification answer had neither a second factor nor a token');
  throw new AccountsError('server');
}

/**
 * The server part of a sign-up made in this browser (docs/protocol.md#sign-up, step 5), once the plain
 * token is saved: upload the original key attributes, register the SRP verifier from the saved
 * `srpSetupAttributes`, fetch the SRP attributes. Without local attributes (sign-up begun elsewhere)
 * `/generate` asks for a password instead. A failed SRP registration is logged, not fatal: the first
 * password login of a legacy account registers one (docs/protocol.md#login).
 */
async function completeSignUp(): Promise<string> {
  const original = savedOriginalKeyAttributes();
  if (!original) return '/generate';
  const remote = await loadRemote();
  await during('session', () => remote.putKeyAttributes(keyAttributesForUpload(original)));
  const setup = savedSrpSetupAttributes();
  if (setup) {
    try {
      await registerSrpVerifier(setup, { loginSubKey: setup.loginSubKey });
      removeSrpSetupAttributes();
    } catch (e) {
      log.error('Could not register the SRP verifier after sign-up', e);
    }
  }
  await fetchAndSaveSrpAttributes(flowEmail());
  saveIsFirstLogin();
  return '/generate';
}

/**
 * SRP setup (docs/protocol.md#srp-setup): setup, complete, check M2. `secret` is the KEK, or the login
 * subkey saved at sign-up. Throws AccountsError (`serverNotAuthentic` when M2 is wrong).
 */
export async function registerSrpVerifier(
  setup: { srpUserID: string; srpSalt: string; srpVerifier: string },
  secret: { kek: string } | { loginSubKey: string },
): Promise<void> {
  const [crypto, remote] = await Promise.all([cryptoWorker(), loadRemote()]);
  await during('srpSetup', async () => {
    const { srpUserID, srpSalt, srpVerifier } = setup;
    const { handle, srpA } = await crypto.srpClientStart({ srpUserID, srpSalt, ...secret });
    const { setupID, srpB } = await remote.setUpSrp({ srpUserID, srpSalt, srpVerifier, srpA });
    const srpM1 = await crypto.srpClientProof(handle, srpB);
    const { srpM2 } = await remote.completeSrp(setupID, srpM1);
    if (!(await crypto.srpClientVerify(handle, srpM2))) throw new AccountsError('serverNotAuthentic');
  });
}

/** What fetching the SRP attributes came to: saved, none on the server (a legacy account), or a failure. */
export type SrpAttributesFetch = 'saved' | 'absent' | 'failed';

/** Fetches and saves the SRP attributes. A failure is logged, not thrown: the sign-in goes on without them. */
export async function fetchAndSaveSrpAttributes(email: string): Promise<SrpAttributesFetch> {
  try {
    const attributes = await (await loadRemote()).getSrpAttributes(email);
    if (!attributes) return 'absent';
    saveSrpAttributes(attributes);
    return 'saved';
  } catch (e) {
    log.error('Could not fetch the SRP attributes', e);
    return 'failed';
  }
}

/**
 * The end of every password sign-in (docs/protocol.md#login, step 3) with a KEK that opens
 * `keyAttributes`: open the masterKey (a wrong KEK → `incorrectPassword`) and keep it for this tab,
 * open the sealed token, make sure the SRP attributes are known (a legacy account without SRP gets a
 * verifier now, from the KEK of the server's parameters), then make the interactive attributes in the
 * background. Returns the remembered redirect or the app's home. See: [Note: One Argon2id run per sign-in]
 */
export async function unlockWithKEK(
  kek: string,
  keyAttributes: StoredKeyAttributes,
  password?: string,
): Promise<string> {
  const crypto = await cryptoWorker();
  const masterKey = await during('srpLogin', () => crypto.decryptMasterKey(kek, keyAttributes));
  await saveMasterKeyOfThisTab(masterKey);
  const user = savedUser();
  if (user?.encryptedToken) {
    const encryptedToken = user.encryptedToken;
    const token = await during('session', () => crypto.openToken(encryptedToken, keyAttributes, masterKey));
    await saveUserWithout({ token }, ['encryptedToken']);
  }
  if (!savedSrpAttributes() && user?.email && !isInteractive(keyAttributes)) {
    await registerSrpVerifierIfMissing(kek, user.email);
  }
  const interactiveKEK = takePendingInteractiveKEK();
  if (isInteractive(keyAttributes)) removeIsFirstLogin();
  else makeInteractiveAttributesLater(keyAttributes, masterKey, password, interactiveKEK);
  return takeRedirect() ?? homeRoute();
}

/**
 * Fetches the SRP attributes; a legacy account the server has none for registers a verifier from the KEK
 * and fetches them again. A failed fetch registers nothing (the account may well have a verifier).
 */
async function registerSrpVerifierIfMissing(kek: string, email: string): Promise<void> {
  if ((await fetchAndSaveSrpAttributes(email)) !== 'absent') return;
  try {
    const crypto = await cryptoWorker();
    await registerSrpVerifier(await crypto.generateSrpSetupAttributes(kek), { kek });
    await fetchAndSaveSrpAttributes(email);
  } catch (e) {
    log.error('Could not register an SRP verifier for a legacy account', e);
  }
}

/**
 * Starts deriving an interactive KEK while the user is at the second factor; the password is not kept.
 * A failure is logged and leaves the server's attributes in place (and `isFirstLogin` set).
 */
function deriveInteractiveKEKAhead(password: string): void {
  const pending = (async (): Promise<InteractiveKEK | undefined> => {
    const kekSalt = randomSaltB64();
    const params = { kekSalt, opsLimit: interactiveOpsLimit, memLimit: interactiveMemLimit };
    const kek = await (await cryptoWorker()).deriveKEK(password, params);
    return { kek, ...params };
  })().catch((e: unknown) => {
    log.error('Could not derive the interactive KEK', e);
    return undefined;
  });
  setPendingInteractiveKEK(pending);
}

/**
 * Replaces the server's attributes in local storage by interactive ones, in the background: from the
 * password, or from an interactive KEK derived ahead. Nothing is written if the local attributes
 * changed meanwhile (another login, a logout).
 */
export function makeInteractiveAttributesLater(
  keyAttributes: StoredKeyAttributes,
  masterKey: string,
  password: string | undefined,
  interactiveKEK?: Promise<InteractiveKEK | undefined>,
): void {
  if (password === undefined && interactiveKEK === undefined) return;
  queueBackgroundWork(async () => {
    try {
      const crypto = await cryptoWorker();
      let interactive: StoredKeyAttributes | undefined;
      if (password !== undefined) {
        interactive = await crypto.makeInteractiveKeyAttributes(password, masterKey, keyAttributes);
      } else {
        const derived = await interactiveKEK;
        if (!derived) return;
        const box = await crypto.encryptBox(masterKey, derived.kek);
        const { kekSalt, opsLimit, memLimit } = derived;
        interactive = {
          ...keyAttributes,
          kekSalt,
          opsLimit,
          memLimit,
          encryptedKey: box.encryptedData,
          keyDecryptionNonce: box.nonce,
        };
      }
      const current = savedKeyAttributes();
      if (current?.encryptedKey !== keyAttributes.encryptedKey || current.kekSalt !== keyAttributes.kekSalt) return;
      saveKeyAttributes(interactive);
      removeIsFirstLogin();
    } catch (e) {
      log.error('Could not make the interactive key attributes', e);
    }
  });
}

/** 16 random bytes, b64 (an Argon2id salt). */
function randomSaltB64(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
