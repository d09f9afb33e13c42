import { http, HttpResponse } from 'msw';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { savedKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { apiOrigin, emailCode, totpCode, totpSecret, type FakeAccount } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import type { AccountsError } from './errors.ts';
import { credentialsMode, startLogin, submitPassword } from './login.ts';
import { masterKeyOfThisTab } from './storage.ts';
import { recoverTwoFactor, recoverTwoFactorStart, verifyTwoFactor } from './two-factor.ts';
import { verifyEmail } from './verify.ts';

const t = fakeServerPerTest();
const email = 'kim@example.org';
const password = 'kim password';

async function expectKind(promise: Promise<unknown>, kind: AccountsError['kind']) {
  await expect(promise).rejects.toMatchObject({ name: 'AccountsError', kind });
}

/** An account with TOTP, signed in by e-mail code up to the second factor. */
async function atSecondFactor(): Promise<FakeAccount & { keys: { recoveryKey: string; masterKey: string } }> {
  const account = await t.fake.addAccount(email, password, { twoFactor: true, srp: false });
  await startLogin(email);
  expect(await verifyEmail(emailCode)).toBe('/two-factor/verify');
  return account;
}

describe('verifyTwoFactor', () => {
  test('a right code saves the sealed token and the keys → /credentials', async () => {
    const account = await atSecondFactor();
    expect(await verifyTwoFactor(' 654 321')).toBe('/credentials');
    const user = savedUser();
    expect(user).toMatchObject({ id: account.id, email, isTwoFactorEnabled: true });
    expect(user?.twoFactorSessionID).toBeUndefined();
    expect(user?.token).toBeUndefined();
    expect(user?.encryptedToken).toBeDefined();
    expect(savedKeyAttributes()).toEqual(account.keyAttributes);
    expect(credentialsMode()).toBe('unlock');
    expect(await submitPassword(password)).toBe('/auth');
  });

  test.each([
    ['401 (wrong code) → wrongCode', 401, 'wrongCode'],
    ['404 (session over) → sessionExpired', 404, 'sessionExpired'],
    ['429 → tooManyAttempts', 429, 'tooManyAttempts'],
    ['500 → server', 500, 'server'],
  ] as const)('%s', async (_, status, kind) => {
    await atSecondFactor();
    t.msw.use(http.post(`${apiOrigin}/users/two-factor/verify`, () => HttpResponse.json({}, { status })));
    await expectKind(verifyTwoFactor(totpCode), kind);
    expect(savedUser()?.twoFactorSessionID).toBeDefined();
  });

  test('the fake server refuses another code', async () => {
    await atSecondFactor();
    await expectKind(verifyTwoFactor('111111'), 'wrongCode');
  });

  test('without a two-factor session it is sessionExpired', async () => {
    await expectKind(verifyTwoFactor(totpCode), 'sessionExpired');
  });
});

describe('recovering from a lost second factor', () => {
  test('the recovery words open the secret, remove two-factor → /credentials', async () => {
    const account = await atSecondFactor();
    const sessionID = savedUser()?.twoFactorSessionID;
    await recoverTwoFactorStart();
    expect(t.fake.requestsTo('get', '/users/two-factor/recover')[0]?.query).toEqual({
      twoFactorType: 'totp',
      sessionID,
    });
    const words = await cryptoAPI.recoveryKeyToWords(account.keys.recoveryKey);
    expect(await recoverTwoFactor(`  ${words.replaceAll(' ', '   ')} `)).toBe('/credentials');
    expect(t.fake.requestsTo('post', '/users/two-factor/remove')[0]?.body).toEqual({
      twoFactorType: 'totp',
      sessionID,
      secret: totpSecret,
    });
    const user = savedUser();
    expect(user?.isTwoFactorEnabled).toBeUndefined();
    expect(user?.twoFactorSessionID).toBeUndefined();
    expect(user?.encryptedToken).toBeDefined();
    expect(account.twoFactor).toBeUndefined();
    expect(await submitPassword(password)).toBe('/auth');
    expect(await masterKeyOfThisTab()).toBe(account.keys.masterKey);
  });

  test('works without the start call, and with the key as hex', async () => {
    const account = await atSecondFactor();
    const hex = Buffer.from(account.keys.recoveryKey, 'base64').toString('hex');
    expect(await recoverTwoFactor(hex)).toBe('/credentials');
  });

  test('another account’s recovery key is wrongRecoveryKey; nothing is sent', async () => {
    await atSecondFactor();
    const other = await cryptoAPI.recoveryKeyToWords(await cryptoAPI.generateKey());
    await expectKind(recoverTwoFactor(other), 'wrongRecoveryKey');
    expect(t.fake.requestsTo('post', '/users/two-factor/remove')).toEqual([]);
  });

  test.each([
    ['23 words', (words: string) => words.split(' ').slice(1).join(' '), 'recoveryKeyWordCount'],
    ['a word off the list', (words: string) => `zzzz ${words.split(' ').slice(1).join(' ')}`, 'recoveryKeyUnknownWord'],
    // 24 × "abandon" is 32 zero bytes with a wrong checksum (the right last word is "art").
    ['a wrong checksum', () => Array(24).fill('abandon').join(' '), 'recoveryKeyChecksum'],
    ['nothing', () => '   ', 'recoveryKeyInvalid'],
  ] as const)('%s → %s', async (_, mangle, kind) => {
    const account = await atSecondFactor();
    const words = await cryptoAPI.recoveryKeyToWords(account.keys.recoveryKey);
    await expectKind(recoverTwoFactor(mangle(words)), kind);
  });

  test('a server without the secret (404) is twoFactorRecoveryUnavailable', async () => {
    await atSecondFactor();
    t.msw.use(http.get(`${apiOrigin}/users/two-factor/recover`, () => HttpResponse.json({}, { status: 404 })));
    await expectKind(recoverTwoFactorStart(), 'twoFactorRecoveryUnavailable');
  });

  test('a 403 from remove (a secret the server does not know) is wrongRecoveryKey', async () => {
    const account = await atSecondFactor();
    t.msw.use(http.post(`${apiOrigin}/users/two-factor/remove`, () => HttpResponse.json({}, { status: 403 })));
    const words = await cryptoAPI.recoveryKeyToWords(account.keys.recoveryKey);
    await expectKind(recoverTwoFactor(words), 'wrongRecoveryKey');
  });
});
