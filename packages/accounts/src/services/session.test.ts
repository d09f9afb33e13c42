import { http, HttpResponse } from 'msw';

import {
  savedIsFirstLogin,
  savedKeyAttributes,
  savedOriginalKeyAttributes,
  savedSrpAttributes,
} from '@ente/shared/storage/account-storage.ts';

import { apiOrigin, makeKeys } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import { backgroundWorkSettled } from './flow-state.ts';
import { startLogin, submitPassword } from './login.ts';
import { checkSessionValidity, isSignedIn, isSignedInAndUnlocked, signedInRedirect } from './session.ts';
import { signUp } from './sign-up.ts';
import { verifyEmail } from './verify.ts';

const t = fakeServerPerTest();
const email = 'joan@example.org';
const password = 'joan password';

async function signedIn() {
  const account = await t.fake.addAccount(email, password);
  await startLogin(email);
  await submitPassword(password);
  await backgroundWorkSettled();
  return account;
}

test('signed out: no redirect, not signed in', () => {
  expect(isSignedIn()).toBe(false);
  expect(isSignedInAndUnlocked()).toBe(false);
  expect(signedInRedirect()).toBeUndefined();
});

test('signed in: home when unlocked in this tab, else /credentials', async () => {
  await signedIn();
  expect(isSignedIn()).toBe(true);
  expect(signedInRedirect()).toBe('/auth');
  sessionStorage.clear();
  expect(isSignedInAndUnlocked()).toBe(false);
  expect(signedInRedirect()).toBe('/credentials');
});

test('a valid session with unchanged SRP attributes is valid and changes nothing', async () => {
  await signedIn();
  const before = accountStorage();
  expect(await checkSessionValidity()).toBe('valid');
  expect(t.fake.requestsTo('get', '/users/session-validity/v2')[0]?.authToken).toBeDefined();
  expect(accountStorage()).toEqual(before);
});

test('401 is expired', async () => {
  await signedIn();
  t.msw.use(
    http.get(`${apiOrigin}/users/session-validity/v2`, () =>
      HttpResponse.json({ error: 'invalid token' }, { status: 401 }),
    ),
  );
  expect(await checkSessionValidity()).toBe('expired');
});

test('no network throws network, for the next check to try again', async () => {
  await signedIn();
  t.msw.use(http.get(`${apiOrigin}/users/session-validity/v2`, () => HttpResponse.error()));
  await expect(checkSessionValidity()).rejects.toMatchObject({ kind: 'network' });
});

test('a password changed on another device replaces the local attributes', async () => {
  const account = await signedIn();
  const changed = await makeKeys('new password');
  account.keyAttributes = { ...account.keys.keyAttributes, ...pickKek(changed.keyAttributes) };
  account.srp = {
    srpUserID: changed.srpSetupAttributes.srpUserID,
    srpSalt: changed.srpSetupAttributes.srpSalt,
    srpVerifier: changed.srpSetupAttributes.srpVerifier,
  };
  expect(await checkSessionValidity()).toBe('passwordChanged');
  expect(savedKeyAttributes()).toEqual(account.keyAttributes);
  expect(savedOriginalKeyAttributes()).toEqual(account.keyAttributes);
  expect(savedSrpAttributes()?.kekSalt).toBe(changed.keyAttributes.kekSalt);
  expect(savedIsFirstLogin()).toBe(true);
});

test('an account without keys gets the attributes of a sign-up begun here uploaded again', async () => {
  const keys = await makeKeys(password);
  jest.spyOn(t.crypto, 'generateKeyAttributes').mockResolvedValue(keys);
  await signUp({ email, password });
  // The upload of the sign-up failed; the session is there.
  t.msw.use(http.put(`${apiOrigin}/users/attributes`, () => HttpResponse.json({}, { status: 500 }), { once: true }));
  await expect(verifyEmail('123456')).rejects.toMatchObject({ kind: 'server' });
  expect(t.fake.accounts.get(email)?.keyAttributes).toBeUndefined();
  expect(await checkSessionValidity()).toBe('valid');
  expect(t.fake.accounts.get(email)?.keyAttributes).toEqual(keys.keyAttributes);
});

test('an account without keys and none here is keysMissing', async () => {
  t.fake.addAccountWithoutKeys(email);
  localStorage.setItem('user', JSON.stringify({ email }));
  expect(await verifyEmail('123456')).toBe('/generate');
  expect(await checkSessionValidity()).toBe('keysMissing');
});

function pickKek(keyAttributes: { kekSalt: string; encryptedKey: string; keyDecryptionNonce: string }) {
  const { kekSalt, encryptedKey, keyDecryptionNonce } = keyAttributes;
  return { kekSalt, encryptedKey, keyDecryptionNonce };
}

/** Local storage without the log. */
function accountStorage(): Record<string, string | null> {
  const keys = Object.keys(localStorage).filter((key) => key !== 'logs');
  return Object.fromEntries(keys.map((key) => [key, localStorage.getItem(key)]));
}
