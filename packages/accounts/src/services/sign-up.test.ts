import { http, HttpResponse } from 'msw';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { setAppName } from '@ente/shared/app-name.ts';
import {
  savedEncryptionKeyStash,
  savedIsFirstLogin,
  savedJustSignedUp,
  savedKeyAttributes,
  savedOriginalKeyAttributes,
  savedReferralSource,
  savedSrpAttributes,
  savedSrpSetupAttributes,
} from '@ente/shared/storage/account-storage.ts';
import { savedKV } from '@ente/shared/storage/kv.ts';
import { savedUser, saveUser } from '@ente/shared/storage/local-storage.ts';

import { apiOrigin, emailCode, makeKeys } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import type { AccountsError } from './errors.ts';
import { backgroundWorkSettled } from './flow-state.ts';
import { startLogin, submitPassword } from './login.ts';
import { signedInRedirect } from './session.ts';
import {
  acknowledgeRecoveryKey,
  finishInterruptedSignUp,
  generateMode,
  generateRedirect,
  recoveryKeyWordsOfThisTab,
  signUp,
} from './sign-up.ts';
import { masterKeyOfThisTab } from './storage.ts';
import { verifyEmail } from './verify.ts';

const t = fakeServerPerTest();
const email = 'grace@example.org';
const password = 'a long password';

/** Key generation with the small test parameters instead of seconds of sensitive Argon2id. */
async function withTestKeys() {
  const keys = await makeKeys(password);
  const generate = jest.spyOn(t.crypto, 'generateKeyAttributes').mockResolvedValue(keys);
  return { keys, generate };
}

async function expectKind(promise: Promise<unknown>, kind: AccountsError['kind']) {
  await expect(promise).rejects.toMatchObject({ name: 'AccountsError', kind });
}

describe('signUp', () => {
  test('sends the code, saves the keys as the protocol says → /verify', async () => {
    const { keys, generate } = await withTestKeys();
    expect(await signUp({ email: ' Grace@Example.org', password, referral: '  a friend ' })).toBe('/verify');
    expect(generate).toHaveBeenCalledWith(password);
    const [ott] = t.fake.requestsTo('post', '/users/ott');
    expect(ott?.body).toEqual({ email, purpose: 'signup', client: 'totp' });
    expect(ott?.clientPackage).toBe('io.ente.auth.web');
    expect(savedUser()).toEqual({ email });
    expect(savedReferralSource()).toBe('a friend');
    expect(savedOriginalKeyAttributes()).toEqual(keys.keyAttributes);
    expect(savedSrpSetupAttributes()).toEqual(keys.srpSetupAttributes);
    expect(savedJustSignedUp()).toBe(true);
    expect(savedEncryptionKeyStash()).toBeDefined();
    expect(await masterKeyOfThisTab()).toBe(keys.masterKey);
    await backgroundWorkSettled();
    expect(savedKeyAttributes()).toMatchObject({ opsLimit: 2, memLimit: 67108864 });
    expect(savedKeyAttributes()?.publicKey).toBe(keys.keyAttributes.publicKey);
  });

  test('the photos app sends client "web"; no referral, no referralSource', async () => {
    setAppName('photos');
    await withTestKeys();
    await signUp({ email, password, referral: '   ' });
    expect(t.fake.requestsTo('post', '/users/ott')[0]?.body).toEqual({ email, purpose: 'signup', client: 'web' });
    expect(savedReferralSource()).toBeUndefined();
  });

  test('an address with an account is alreadyRegistered, and nothing is saved', async () => {
    await t.fake.addAccount(email, password);
    await withTestKeys();
    await expectKind(signUp({ email, password }), 'alreadyRegistered');
    expect(savedUser()).toBeUndefined();
    expect(savedOriginalKeyAttributes()).toBeUndefined();
    expect(savedEncryptionKeyStash()).toBeUndefined();
  });

  test.each([
    ['403 (registration disabled)', 'registrationDisabled', () => HttpResponse.json({}, { status: 403 })],
    ['429', 'rateLimited', () => HttpResponse.json({}, { status: 429 })],
    ['no network', 'network', () => HttpResponse.error()],
  ] as const)('a code request answered %s is %s', async (_, kind, resolver) => {
    await withTestKeys();
    t.msw.use(http.post(`${apiOrigin}/users/ott`, resolver));
    await expectKind(signUp({ email, password }), kind);
  });

  test('a device without the memory for Argon2id is insufficientMemory', async () => {
    const error = Object.assign(new Error('insufficient memory for key derivation'), {
      name: 'InsufficientMemoryError',
    });
    jest.spyOn(t.crypto, 'generateKeyAttributes').mockRejectedValue(error);
    await expectKind(signUp({ email, password }), 'insufficientMemory');
    expect(savedUser()).toBeUndefined();
  });
});

describe('verifying the sign-up', () => {
  test('uploads the attributes, registers SRP, fetches its attributes → /generate with the recovery key', async () => {
    const { keys } = await withTestKeys();
    await signUp({ email, password, referral: 'a friend' });
    expect(await verifyEmail(emailCode)).toBe('/generate');

    expect(t.fake.requestsTo('post', '/users/verify-email')[0]?.body).toEqual({
      email,
      ott: emailCode,
      source: 'web:a friend',
    });
    expect(savedReferralSource()).toBeUndefined();
    const user = savedUser();
    expect(user).toMatchObject({ id: 1, email });
    expect(await savedKV('token')).toBe(user?.token);
    const [put] = t.fake.requestsTo('put', '/users/attributes');
    expect(put?.body).toEqual({ keyAttributes: keys.keyAttributes });
    expect(put?.authToken).toBe(user?.token);
    const [setup] = t.fake.requestsTo('post', '/users/srp/setup');
    expect(setup?.body).toMatchObject({
      srpUserID: keys.srpSetupAttributes.srpUserID,
      srpSalt: keys.srpSetupAttributes.srpSalt,
      srpVerifier: keys.srpSetupAttributes.srpVerifier,
    });
    expect(t.fake.requestsTo('post', '/users/srp/complete')).toHaveLength(1);
    expect(savedSrpSetupAttributes()).toBeUndefined();
    expect(savedSrpAttributes()?.srpUserID).toBe(keys.srpSetupAttributes.srpUserID);
    expect(savedIsFirstLogin()).toBe(true);
    expect(t.fake.accounts.get(email)?.source).toBe('web:a friend');

    expect(generateMode()).toBe('recoveryKey');
    expect(await recoveryKeyWordsOfThisTab()).toBe(await cryptoAPI.recoveryKeyToWords(keys.recoveryKey));
    expect(acknowledgeRecoveryKey()).toBe('/auth');
    expect(savedJustSignedUp()).toBe(false);
    expect(generateMode()).toBe('none');
    expect(generateRedirect()).toBe('/auth');
    expect(signedInRedirect()).toBe('/auth');
  });

  test('the new account signs in with its password by SRP', async () => {
    const { keys } = await withTestKeys();
    await signUp({ email, password });
    await verifyEmail(emailCode);
    localStorage.clear();
    sessionStorage.clear();
    expect(await startLogin(email)).toBe('/credentials');
    expect(await submitPassword(password)).toBe('/auth');
    expect(await masterKeyOfThisTab()).toBe(keys.masterKey);
  });

  test('an impostor answering a wrong M2 at SRP setup is logged; the verifier stays to register', async () => {
    await withTestKeys();
    await signUp({ email, password });
    t.fake.tamperM2 = true;
    expect(await verifyEmail(emailCode)).toBe('/generate');
    expect(savedSrpSetupAttributes()).toBeDefined();
    expect(localStorage.getItem('logs')).toContain('Could not register the SRP verifier after sign-up');
  });

  test('a failed upload of the attributes fails the step', async () => {
    await withTestKeys();
    await signUp({ email, password });
    t.msw.use(http.put(`${apiOrigin}/users/attributes`, () => HttpResponse.json({}, { status: 500 })));
    await expectKind(verifyEmail(emailCode), 'server');
  });
});

describe('an interrupted sign-up', () => {
  test('asks for a password at /generate, then makes and uploads the keys', async () => {
    // E.g. the code came from the resend button of a sign-up begun in another browser.
    t.fake.addAccountWithoutKeys(email);
    await saveUser({ email });
    expect(await verifyEmail(emailCode)).toBe('/generate');
    expect(savedUser()?.token).toBeDefined();
    expect(generateMode()).toBe('password');
    expect(signedInRedirect()).toBe('/generate');

    const { keys } = await withTestKeys();
    expect(await finishInterruptedSignUp(password)).toBe('/generate');
    expect(t.fake.requestsTo('put', '/users/attributes')[0]?.body).toEqual({ keyAttributes: keys.keyAttributes });
    expect(t.fake.accounts.get(email)?.srp?.srpUserID).toBe(keys.srpSetupAttributes.srpUserID);
    expect(savedSrpAttributes()?.srpUserID).toBe(keys.srpSetupAttributes.srpUserID);
    expect(generateMode()).toBe('recoveryKey');
    expect(await recoveryKeyWordsOfThisTab()).toBe(await cryptoAPI.recoveryKeyToWords(keys.recoveryKey));
  });

  test('is sessionExpired when signed out', async () => {
    await expectKind(finishInterruptedSignUp(password), 'sessionExpired');
    expect(generateMode()).toBe('none');
    expect(generateRedirect()).toBe('/login');
  });
});

test('the recovery words need an unlocked tab', async () => {
  await expectKind(recoveryKeyWordsOfThisTab(), 'sessionExpired');
});
