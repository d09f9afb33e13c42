import { http, HttpResponse } from 'msw';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { resetInMemoryState } from '@ente/shared/storage/in-memory.ts';
import { savedKV } from '@ente/shared/storage/kv.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { apiOrigin, emailCode, totpCode } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import type { AccountsError } from './errors.ts';
import { startLogin } from './login.ts';
import { recoverAccount, resetPasswordRoute, startAccountRecovery } from './recover.ts';
import { masterKeyOfThisTab } from './storage.ts';
import { verifyTwoFactor } from './two-factor.ts';
import { verifyEmail } from './verify.ts';

const t = fakeServerPerTest();
const email = 'mary@example.org';
const password = 'mary password';

async function expectKind(promise: Promise<unknown>, kind: AccountsError['kind']) {
  await expect(promise).rejects.toMatchObject({ name: 'AccountsError', kind });
}

test('from /credentials: a code (no purpose), back to /recover, the words → /change-password?op=reset', async () => {
  const account = await t.fake.addAccount(email, password);
  expect(await startLogin(email)).toBe('/credentials');
  expect(await startAccountRecovery()).toBe('/verify');
  expect(t.fake.requestsTo('post', '/users/ott')[0]?.body).toEqual({ email, client: 'totp' });
  expect(await verifyEmail(emailCode)).toBe('/recover');
  expect(await startAccountRecovery()).toBeUndefined();

  const words = await cryptoAPI.recoveryKeyToWords(account.keys.recoveryKey);
  expect(await recoverAccount(words)).toBe('/change-password?op=reset');
  expect(resetPasswordRoute).toBe('/change-password?op=reset');
  expect(await masterKeyOfThisTab()).toBe(account.keys.masterKey);
  const user = savedUser();
  expect(user?.token).toBeDefined();
  expect(user?.encryptedToken).toBeUndefined();
  expect(await savedKV('token')).toBe(user?.token);
});

test('with a second factor in between, the redirect waits until it is passed', async () => {
  const account = await t.fake.addAccount(email, password, { twoFactor: true });
  await startLogin(email);
  expect(await startAccountRecovery()).toBe('/verify');
  expect(await verifyEmail(emailCode)).toBe('/two-factor/verify');
  expect(await verifyTwoFactor(totpCode)).toBe('/recover');
  const words = await cryptoAPI.recoveryKeyToWords(account.keys.recoveryKey);
  expect(await recoverAccount(words)).toBe(resetPasswordRoute);
});

test('logout forgets the remembered redirect', async () => {
  await t.fake.addAccount(email, password);
  await startLogin(email);
  await startAccountRecovery();
  await resetInMemoryState();
  expect(await verifyEmail(emailCode)).toBe('/credentials');
});

test('a wrong recovery key is wrongRecoveryKey and unlocks nothing', async () => {
  await t.fake.addAccount(email, password);
  await startLogin(email);
  await startAccountRecovery();
  await verifyEmail(emailCode);
  const words = await cryptoAPI.recoveryKeyToWords(await cryptoAPI.generateKey());
  await expectKind(recoverAccount(words), 'wrongRecoveryKey');
  await expectKind(recoverAccount('abandon abandon'), 'recoveryKeyWordCount');
  expect(await masterKeyOfThisTab()).toBeUndefined();
});

test('without an address /recover sends to /login; without keys the words are sessionExpired', async () => {
  expect(await startAccountRecovery()).toBe('/login');
  await expectKind(recoverAccount('abandon'), 'sessionExpired');
});

test('a rate-limited code request is rateLimited', async () => {
  await t.fake.addAccount(email, password);
  await startLogin(email);
  t.msw.use(http.post(`${apiOrigin}/users/ott`, () => HttpResponse.json({}, { status: 429 })));
  await expectKind(startAccountRecovery(), 'rateLimited');
});
