import { http, HttpResponse } from 'msw';

import { setAppName } from '@ente/shared/app-name.ts';
import {
  savedEncryptionKeyStash,
  savedIsFirstLogin,
  savedKeyAttributes,
  savedKeyEncryptionKeyStash,
  savedOriginalKeyAttributes,
  savedSrpAttributes,
} from '@ente/shared/storage/account-storage.ts';
import { savedKV } from '@ente/shared/storage/kv.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { apiOrigin, emailCode, totpCode } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import type { AccountsError } from './errors.ts';
import { backgroundWorkSettled, rememberRedirect } from './flow-state.ts';
import { credentialsMode, credentialsRedirect, resumeWithStashedKEK, startLogin, submitPassword } from './login.ts';
import { isSignedInAndUnlocked } from './session.ts';
import { masterKeyOfThisTab } from './storage.ts';
import { verifyTwoFactor } from './two-factor.ts';
import { verifyEmail } from './verify.ts';

const t = fakeServerPerTest();
const email = 'ada@example.org';
const password = 'correct horse';

async function expectKind(promise: Promise<unknown>, kind: AccountsError['kind']) {
  await expect(promise).rejects.toMatchObject({ name: 'AccountsError', kind });
}

describe('startLogin', () => {
  test('an account with SRP goes to /credentials with its SRP attributes saved', async () => {
    const account = await t.fake.addAccount(email, password);
    expect(await startLogin('  Ada@Example.org ')).toBe('/credentials');
    expect(t.fake.requestsTo('get', '/users/srp/attributes')[0]?.query).toEqual({ email });
    expect(savedUser()).toEqual({ email });
    expect(savedSrpAttributes()).toEqual({
      srpUserID: account.srp?.srpUserID,
      srpSalt: account.srp?.srpSalt,
      kekSalt: account.keyAttributes?.kekSalt,
      opsLimit: 1,
      memLimit: 8192,
      isEmailMFAEnabled: false,
    });
    expect(t.fake.requestsTo('post', '/users/ott')).toEqual([]);
    expect(credentialsMode()).toBe('srp');
  });

  test.each([
    ['without SRP (404)', { srp: false }],
    ['with e-mail MFA', { emailMFA: true }],
  ])('an account %s gets a login code and goes to /verify', async (_, options) => {
    await t.fake.addAccount(email, password, options);
    expect(await startLogin(email)).toBe('/verify');
    const [ott] = t.fake.requestsTo('post', '/users/ott');
    expect(ott?.body).toEqual({ email, purpose: 'login', client: 'totp' });
    expect(ott?.clientPackage).toBe('io.ente.auth.web');
    expect(savedUser()).toEqual({ email });
    expect(savedSrpAttributes()).toBeUndefined();
  });

  test('other apps send client "web" and their own package', async () => {
    setAppName('photos');
    await t.fake.addAccount(email, password, { srp: false });
    await startLogin(email);
    const [ott] = t.fake.requestsTo('post', '/users/ott');
    expect(ott?.body).toEqual({ email, purpose: 'login', client: 'web' });
    expect(ott?.clientPackage).toBe('io.ente.photos.web');
  });

  test('an unknown address is notRegistered; an unfinished sign-up is signupIncomplete', async () => {
    await expectKind(startLogin(email), 'notRegistered');
    t.fake.addAccountWithoutKeys(email);
    await expectKind(startLogin(email), 'signupIncomplete');
    expect(savedUser()).toBeUndefined();
  });

  test('a rate limit, a server error and no network each have their kind', async () => {
    const attributes = `${apiOrigin}/users/srp/attributes`;
    t.msw.use(
      http.get(attributes, () => HttpResponse.json({ error: 'Rate limit breached, try later' }, { status: 429 })),
    );
    await expectKind(startLogin(email), 'rateLimited');
    t.msw.use(http.get(attributes, () => HttpResponse.json({}, { status: 502 })));
    await expectKind(startLogin(email), 'server');
    t.msw.use(http.get(attributes, () => HttpResponse.error()));
    await expectKind(startLogin(email), 'network');
  });

  test('forgets what an earlier unfinished sign-in left', async () => {
    const other = await t.fake.addAccount('other@example.org', 'other password', { srp: false });
    await startLogin(other.email);
    await verifyEmail(emailCode);
    expect(savedKeyAttributes()).toBeDefined();
    await t.fake.addAccount(email, password);
    await startLogin(email);
    expect(savedKeyAttributes()).toBeUndefined();
    expect(savedOriginalKeyAttributes()).toBeUndefined();
    expect(credentialsMode()).toBe('srp');
  });
});

describe('SRP login', () => {
  test('signs in with one derivation, checks M2, opens the token and lands home', async () => {
    const account = await t.fake.addAccount(email, password);
    await startLogin(email);
    const deriveKEK = jest.spyOn(t.crypto, 'deriveKEK');
    // The interactive derivation waits for a gate: landing home must not wait for it.
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const original = t.crypto.makeInteractiveKeyAttributes.bind(t.crypto);
    const makeInteractive = jest
      .spyOn(t.crypto, 'makeInteractiveKeyAttributes')
      .mockImplementation(async (...args: Parameters<typeof original>) => {
        await gate;
        return original(...args);
      });
    expect(await submitPassword(password)).toBe('/auth');

    expect(deriveKEK).toHaveBeenCalledTimes(1);
    expect(deriveKEK.mock.calls[0]?.[1]).toMatchObject({ kekSalt: account.keyAttributes?.kekSalt, opsLimit: 1 });
    const [created] = t.fake.requestsTo('post', '/users/srp/create-session');
    expect(Object.keys(created?.body as object).sort()).toEqual(['srpA', 'srpUserID']);
    const [verified] = t.fake.requestsTo('post', '/users/srp/verify-session');
    expect(Object.keys(verified?.body as object).sort()).toEqual(['sessionID', 'srpM1', 'srpUserID']);

    const user = savedUser();
    expect(user).toMatchObject({ id: account.id, email });
    expect(user?.encryptedToken).toBeUndefined();
    expect(user?.token).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(await savedKV('token')).toBe(user?.token);
    expect(await masterKeyOfThisTab()).toBe(account.keys.masterKey);
    expect(isSignedInAndUnlocked()).toBe(true);

    // Home first, then the interactive attributes replace the server's in the background.
    expect(savedKeyAttributes()?.kekSalt).toBe(account.keyAttributes?.kekSalt);
    openGate();
    await backgroundWorkSettled();
    expect(makeInteractive).toHaveBeenCalledTimes(1);
    expect(makeInteractive.mock.calls[0]?.[0]).toBe(password);
    expect(savedKeyAttributes()).toMatchObject({ opsLimit: 2, memLimit: 67108864 });
    expect(savedKeyAttributes()?.kekSalt).not.toBe(account.keyAttributes?.kekSalt);
    expect(savedKeyAttributes()?.publicKey).toBe(account.keyAttributes?.publicKey);
    expect(savedOriginalKeyAttributes()?.kekSalt).toBe(account.keyAttributes?.kekSalt);
    expect(savedIsFirstLogin()).toBe(false);
  });

  test('unlocking a new tab later takes one fast derivation and makes nothing new', async () => {
    const account = await t.fake.addAccount(email, password);
    await startLogin(email);
    await submitPassword(password);
    await backgroundWorkSettled();
    const interactive = savedKeyAttributes();
    sessionStorage.clear(); // a new tab
    expect(credentialsMode()).toBe('unlock');

    const deriveKEK = jest.spyOn(t.crypto, 'deriveKEK');
    const makeInteractive = jest.spyOn(t.crypto, 'makeInteractiveKeyAttributes');
    const requests = t.fake.requests.length;
    expect(await submitPassword(password)).toBe('/auth');
    await backgroundWorkSettled();
    expect(deriveKEK).toHaveBeenCalledTimes(1);
    expect(deriveKEK.mock.calls[0]?.[1]).toMatchObject({ opsLimit: 2, memLimit: 67108864 });
    expect(makeInteractive).not.toHaveBeenCalled();
    expect(savedKeyAttributes()).toEqual(interactive);
    expect(await masterKeyOfThisTab()).toBe(account.keys.masterKey);
    expect(t.fake.requests.length).toBe(requests);
    expect(credentialsMode()).toBe('none');
    expect(credentialsRedirect()).toBe('/auth');
  });

  test('a page that sent a locked tab here with a remembered redirect gets it back after unlocking', async () => {
    await t.fake.addAccount(email, password);
    await startLogin(email);
    await submitPassword(password);
    sessionStorage.clear();
    rememberRedirect('/change-password');
    expect(credentialsMode()).toBe('unlock');
    expect(await submitPassword(password)).toBe('/change-password');
    rememberRedirect('/two-factor/setup');
    expect(credentialsMode()).toBe('none');
    expect(credentialsRedirect()).toBe('/two-factor/setup');
  });

  test('a wrong password is incorrectPassword (401) and saves nothing', async () => {
    await t.fake.addAccount(email, password);
    await startLogin(email);
    await expectKind(submitPassword('wrong password'), 'incorrectPassword');
    expect(savedUser()).toEqual({ email });
    expect(savedEncryptionKeyStash()).toBeUndefined();
    expect(credentialsMode()).toBe('srp');
  });

  test('a wrong M2 is serverNotAuthentic', async () => {
    await t.fake.addAccount(email, password);
    await startLogin(email);
    t.fake.tamperM2 = true;
    await expectKind(submitPassword(password), 'serverNotAuthentic');
    expect(savedUser()?.token).toBeUndefined();
    expect(savedEncryptionKeyStash()).toBeUndefined();
  });

  test.each([
    ['410 TOO_MANY_WRONG_ATTEMPTS', { code: 'TOO_MANY_WRONG_ATTEMPTS', message: '' }, 410, 'tooManyAttempts'],
    ['429 TOO_MANY_UNVERIFIED_SESSIONS', { code: 'TOO_MANY_UNVERIFIED_SESSIONS', message: '' }, 429, 'tooManyAttempts'],
    ['429 rate limit', { error: 'Rate limit breached, try later' }, 429, 'rateLimited'],
    ['500', {}, 500, 'server'],
  ] as const)('verify-session %s → %s', async (_, body, status, kind) => {
    await t.fake.addAccount(email, password);
    await startLogin(email);
    t.msw.use(http.post(`${apiOrigin}/users/srp/verify-session`, () => HttpResponse.json(body, { status })));
    await expectKind(submitPassword(password), kind);
  });

  test('no network at create-session is network', async () => {
    await t.fake.addAccount(email, password);
    await startLogin(email);
    t.msw.use(http.post(`${apiOrigin}/users/srp/create-session`, () => HttpResponse.error()));
    await expectKind(submitPassword(password), 'network');
  });

  test('absurd KDF parameters are refused before deriving (kdfUnsupported)', async () => {
    await t.fake.addAccount(email, password);
    await startLogin(email);
    localStorage.setItem('srpAttributes', JSON.stringify({ ...savedSrpAttributes(), memLimit: 4 * 1024 ** 3 }));
    await expectKind(submitPassword(password), 'kdfUnsupported');
  });

  test('e-mail MFA turned on meanwhile (409 EMAIL_MFA_ENABLED) sends a code → /verify', async () => {
    const account = await t.fake.addAccount(email, password);
    await startLogin(email);
    account.emailMFA = true;
    expect(await submitPassword(password)).toBe('/verify');
    expect(t.fake.requestsTo('post', '/users/ott')[0]?.body).toEqual({ email, purpose: 'login', client: 'totp' });
  });
});

describe('the second factor after SRP: the stashed-KEK hand-over', () => {
  test('the password is asked once: KEK stashed, TOTP, then /credentials resumes without it', async () => {
    const account = await t.fake.addAccount(email, password, { twoFactor: true });
    await startLogin(email);
    const deriveKEK = jest.spyOn(t.crypto, 'deriveKEK');
    expect(await submitPassword(password)).toBe('/two-factor/verify');
    expect(savedKeyEncryptionKeyStash()).toBeDefined();
    expect(savedUser()).toMatchObject({ email, isTwoFactorEnabled: true });
    expect(savedUser()?.twoFactorSessionID).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(savedIsFirstLogin()).toBe(true);
    expect(credentialsRedirect()).toBe('/two-factor/verify');

    const sessionID = savedUser()?.twoFactorSessionID;
    expect(await verifyTwoFactor(totpCode)).toBe('/credentials');
    const [check] = t.fake.requestsTo('post', '/users/two-factor/verify');
    expect(check?.body).toEqual({ code: totpCode, sessionID });
    expect(savedUser()?.twoFactorSessionID).toBeUndefined();
    expect(savedUser()?.encryptedToken).toBeDefined();
    expect(credentialsMode()).toBe('stashed');

    expect(await resumeWithStashedKEK()).toBe('/auth');
    expect(savedKeyEncryptionKeyStash()).toBeUndefined();
    expect(savedUser()?.token).toBeDefined();
    expect(savedUser()?.encryptedToken).toBeUndefined();
    expect(await masterKeyOfThisTab()).toBe(account.keys.masterKey);
    // One derivation with the server's parameters before home; the interactive KEK was derived while
    // the user was at the second factor, and now wraps the masterKey.
    expect(deriveKEK.mock.calls.map(([, params]) => params.opsLimit)).toEqual([1, 2]);
    await backgroundWorkSettled();
    expect(savedKeyAttributes()).toMatchObject({ opsLimit: 2, memLimit: 67108864 });
    expect(savedIsFirstLogin()).toBe(false);

    // The interactive attributes made that way unlock a new tab.
    sessionStorage.clear();
    expect(await submitPassword(password)).toBe('/auth');
    expect(await masterKeyOfThisTab()).toBe(account.keys.masterKey);
  });

  test('a TOTP session only in twoFactorSessionIDV2 is used the same way', async () => {
    await t.fake.addAccount(email, password, { twoFactor: true, twoFactorV2: true });
    await startLogin(email);
    expect(await submitPassword(password)).toBe('/two-factor/verify');
    expect(savedUser()?.twoFactorSessionID).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(await verifyTwoFactor(totpCode)).toBe('/credentials');
  });

  test('without a stashed KEK, resuming is sessionExpired and the password is asked', async () => {
    await t.fake.addAccount(email, password, { twoFactor: true });
    await startLogin(email);
    await submitPassword(password);
    await verifyTwoFactor(totpCode);
    sessionStorage.clear(); // e.g. the tab was closed in between
    expect(credentialsMode()).toBe('unlock');
    await expectKind(resumeWithStashedKEK(), 'sessionExpired');
    expect(await submitPassword(password)).toBe('/auth');
  });
});

describe('login by e-mail code, then the password', () => {
  test('the code answer with encryptedToken → /credentials (unlock) → home', async () => {
    const account = await t.fake.addAccount(email, password, { emailMFA: true });
    await startLogin(email);
    expect(await verifyEmail(' 123 456 ')).toBe('/credentials');
    expect(t.fake.requestsTo('post', '/users/verify-email')[0]?.body).toEqual({ email, ott: emailCode });
    expect(savedUser()).toMatchObject({ id: account.id, email });
    expect(savedUser()?.encryptedToken).toBeDefined();
    expect(savedUser()?.token).toBeUndefined();
    expect(savedKeyAttributes()).toEqual(account.keyAttributes);
    expect(savedOriginalKeyAttributes()).toEqual(account.keyAttributes);
    expect(savedIsFirstLogin()).toBe(true);
    expect(credentialsMode()).toBe('unlock');

    expect(await submitPassword(password)).toBe('/auth');
    expect(savedUser()?.token).toBeDefined();
    expect(await masterKeyOfThisTab()).toBe(account.keys.masterKey);
    expect(savedSrpAttributes()?.srpUserID).toBe(account.srp?.srpUserID);
  });

  test('a wrong password at unlock is incorrectPassword', async () => {
    await t.fake.addAccount(email, password, { srp: false });
    await startLogin(email);
    await verifyEmail(emailCode);
    await expectKind(submitPassword('nope nope'), 'incorrectPassword');
    expect(savedEncryptionKeyStash()).toBeUndefined();
  });

  test('a legacy account without SRP registers a verifier at the first password login', async () => {
    const account = await t.fake.addAccount(email, password, { srp: false });
    await startLogin(email);
    await verifyEmail(emailCode);
    expect(await submitPassword(password)).toBe('/auth');
    const [setup] = t.fake.requestsTo('post', '/users/srp/setup');
    expect(Object.keys(setup?.body as object).sort()).toEqual(['srpA', 'srpSalt', 'srpUserID', 'srpVerifier']);
    expect(setup?.authToken).toBe(savedUser()?.token);
    expect(t.fake.requestsTo('post', '/users/srp/complete')).toHaveLength(1);
    expect(account.srp).toBeDefined();
    expect(savedSrpAttributes()?.srpUserID).toBe(account.srp?.srpUserID);

    // The next login goes by SRP, with the same password.
    await startLogin(email);
    expect(credentialsMode()).toBe('srp');
    expect(await submitPassword(password)).toBe('/auth');
  });
});

describe('credentialsMode', () => {
  test('is none without a flow, and sends the visitor to /login', () => {
    expect(credentialsMode()).toBe('none');
    expect(credentialsRedirect()).toBe('/login');
  });

  test('submitPassword without a flow is sessionExpired', async () => {
    await expectKind(submitPassword(password), 'sessionExpired');
  });
});
