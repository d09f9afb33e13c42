import { http, HttpResponse } from 'msw';

import { savedKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { savedUser, saveUser } from '@ente/shared/storage/local-storage.ts';

import { apiOrigin, emailCode } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import type { AccountsError } from './errors.ts';
import { credentialsMode } from './login.ts';
import { codeRecipient, resendCode, verifyEmail } from './verify.ts';

const t = fakeServerPerTest();
const email = 'lin@example.org';
const password = 'lin password';

async function expectKind(promise: Promise<unknown>, kind: AccountsError['kind']) {
  await expect(promise).rejects.toMatchObject({ name: 'AccountsError', kind });
}

beforeEach(async () => {
  await saveUser({ email });
});

test('resending sends a code to the same address without a purpose', async () => {
  expect(codeRecipient()).toBe(email);
  await resendCode();
  const [ott] = t.fake.requestsTo('post', '/users/ott');
  expect(ott?.body).toEqual({ email, client: 'totp' });
  expect(ott?.clientPackage).toBe('io.ente.auth.web');
});

test('resending is rateLimited when the server says so', async () => {
  t.msw.use(http.post(`${apiOrigin}/users/ott`, () => HttpResponse.json({}, { status: 429 })));
  await expectKind(resendCode(), 'rateLimited');
});

test.each([
  ['401 → wrongCode', 401, {}, 'wrongCode'],
  ['410 → expiredCode', 410, {}, 'expiredCode'],
  ['429 → tooManyAttempts', 429, {}, 'tooManyAttempts'],
  ['429 middleware → rateLimited', 429, { error: 'Rate limit breached, try later' }, 'rateLimited'],
  ['403 → registrationDisabled', 403, {}, 'registrationDisabled'],
  ['502 → server', 502, {}, 'server'],
] as const)('a verify-email answer %s', async (_, status, body, kind) => {
  t.msw.use(http.post(`${apiOrigin}/users/verify-email`, () => HttpResponse.json(body, { status })));
  await expectKind(verifyEmail(emailCode), kind);
  expect(savedUser()).toEqual({ email });
});

test('no network is network', async () => {
  t.msw.use(http.post(`${apiOrigin}/users/verify-email`, () => HttpResponse.error()));
  await expectKind(verifyEmail(emailCode), 'network');
});

test('the fake server refuses a wrong code with 401 → wrongCode', async () => {
  await expectKind(verifyEmail('000000'), 'wrongCode');
});

test('an answer of the wrong shape is server', async () => {
  t.msw.use(http.post(`${apiOrigin}/users/verify-email`, () => HttpResponse.json({ id: 'x' })));
  await expectKind(verifyEmail(emailCode), 'server');
});

test('an answer without a token nor a second factor is server', async () => {
  const empty = { id: 7, passkeySessionID: '', accountsUrl: '', twoFactorSessionID: '', twoFactorSessionIDV2: '' };
  t.msw.use(http.post(`${apiOrigin}/users/verify-email`, () => HttpResponse.json(empty)));
  await expectKind(verifyEmail(emailCode), 'server');
});

test('key attributes with null recovery fields (another server) are saved without them', async () => {
  const account = await t.fake.addAccount(email, password);
  const keyAttributes = { ...account.keyAttributes, masterKeyEncryptedWithRecoveryKey: null, kekHash: null };
  account.keyAttributes = keyAttributes as unknown as typeof account.keyAttributes;
  expect(await verifyEmail(emailCode)).toBe('/credentials');
  expect(savedKeyAttributes()).not.toHaveProperty('masterKeyEncryptedWithRecoveryKey');
  expect(savedKeyAttributes()?.publicKey).toBe(account.keys.keyAttributes.publicKey);
  expect(credentialsMode()).toBe('unlock');
});

test('without an address the flow must start again (sessionExpired)', async () => {
  localStorage.removeItem('user');
  await expectKind(verifyEmail(emailCode), 'sessionExpired');
  await expectKind(resendCode(), 'sessionExpired');
  expect(t.fake.requests).toEqual([]);
});
