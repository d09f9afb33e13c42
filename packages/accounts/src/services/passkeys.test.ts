import {
  savedInflightPasskeySessionID,
  savedKeyEncryptionKeyStash,
  savedPasskeyAccountsUrl,
} from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { passkeyRecoverySecret } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import { credentialsMode, resumeWithStashedKEK, startLogin, submitPassword } from './login.ts';
import { finishPasskeyVerification, keepPasskeyAccountsUrl } from './passkeys.ts';
import { masterKeyOfThisTab } from './storage.ts';
import { recoverTwoFactor } from './two-factor.ts';
import { verifyEmail } from './verify.ts';

const t = fakeServerPerTest();
const email = 'ada@example.org';
const password = 'correct horse';

/** The accounts app's `response` parameter: base64url without padding of the answer's JSON. */
function responseParam(answer: unknown): string {
  return Buffer.from(JSON.stringify(answer), 'utf8').toString('base64url');
}

async function signInUpToThePasskey(options: { twoFactor?: boolean } = {}) {
  const account = await t.fake.addAccount(email, password, { passkey: true, ...options });
  await startLogin(email);
  const next = await submitPassword(password);
  const passkeySessionID = savedUser()?.passkeySessionID ?? '';
  return { account, next, passkeySessionID };
}

describe('a passkey as the second factor', () => {
  test('a passkey alone sends the person to the accounts app, KEK stashed, session remembered', async () => {
    const { next, passkeySessionID } = await signInUpToThePasskey();
    expect(passkeySessionID).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    const url = new URL(next);
    expect(url.origin + url.pathname).toBe('https://accounts.ente.com/passkeys/verify');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      clientPackage: 'io.ente.auth.web',
      passkeySessionID,
      redirect: 'http://localhost/passkeys/finish',
      recover: 'http://localhost/passkeys/recover',
    });
    // URLSearchParams form-encodes the padding.
    expect(next).toContain(`passkeySessionID=${passkeySessionID.replace('=', '%3D')}`);
    expect(savedInflightPasskeySessionID()).toBe(passkeySessionID);
    expect(savedPasskeyAccountsUrl()).toBe('https://accounts.ente.com');
    expect(savedKeyEncryptionKeyStash()).toBeDefined();
    expect(savedUser()).toMatchObject({ email, isTwoFactorEnabled: true, passkeySessionID });
    expect(savedUser()?.token).toBeUndefined();
  });

  test('back at /passkeys/finish: the token is kept and /credentials unlocks with the stashed KEK', async () => {
    const { account, passkeySessionID } = await signInUpToThePasskey();
    const answer = await t.fake.passkeyVerified(passkeySessionID);
    expect(await finishPasskeyVerification(passkeySessionID, responseParam(answer))).toEqual({
      route: '/credentials',
    });
    expect(savedInflightPasskeySessionID()).toBeUndefined();
    expect(savedUser()).toMatchObject({ id: account.id, email, encryptedToken: answer.encryptedToken });
    expect(savedUser()?.passkeySessionID).toBeUndefined();
    expect(savedUser()?.isTwoFactorEnabled).toBeUndefined();
    expect(credentialsMode()).toBe('stashed');
    expect(await resumeWithStashedKEK()).toBe('/auth');
    expect(await masterKeyOfThisTab()).toBe(account.keys.masterKey);
  });

  test('/passkeys/finish refuses what this tab did not ask for, and a damaged answer', async () => {
    const { passkeySessionID } = await signInUpToThePasskey();
    const answer = await t.fake.passkeyVerified(passkeySessionID);
    const response = responseParam(answer);
    expect(await finishPasskeyVerification(undefined, response)).toEqual({ problem: 'missing' });
    expect(await finishPasskeyVerification(passkeySessionID, '')).toEqual({ problem: 'missing' });
    const other = 'A'.repeat(43) + '=';
    expect(await finishPasskeyVerification(other, response)).toEqual({ problem: 'otherSession' });
    for (const damaged of [
      response.slice(0, -5),
      responseParam({ ...answer, encryptedToken: 7 }),
      responseParam({ id: answer.id }),
      '%%%',
      Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url'),
    ])
      expect(await finishPasskeyVerification(passkeySessionID, damaged)).toEqual({ problem: 'invalid' });
    // Nothing was kept meanwhile; the real answer still works.
    expect(savedUser()?.encryptedToken).toBeUndefined();
    expect(await finishPasskeyVerification(passkeySessionID, response)).toEqual({ route: '/credentials' });
  });

  test('with TOTP as well, the TOTP step comes first and the passkey stays possible', async () => {
    const { next, passkeySessionID } = await signInUpToThePasskey({ twoFactor: true });
    expect(next).toBe('/two-factor/verify');
    expect(savedUser()?.twoFactorSessionID).toBeDefined();
    expect(passkeySessionID).toBeTruthy();
    expect(savedPasskeyAccountsUrl()).toBe('https://accounts.ente.com');
  });

  test('after an e-mail code too (no KEK to stash)', async () => {
    await t.fake.addAccount(email, password, { passkey: true, emailMFA: true });
    await startLogin(email);
    const next = await verifyEmail('123456');
    expect(next).toMatch(/^https:\/\/accounts\.ente\.com\/passkeys\/verify\?/);
    expect(savedKeyEncryptionKeyStash()).toBeUndefined();
  });

  test('the recovery key signs in without the passkey, which stays', async () => {
    const { account, passkeySessionID } = await signInUpToThePasskey();
    const words = Buffer.from(account.keys.recoveryKey, 'base64').toString('hex');
    expect(await recoverTwoFactor(words, 'passkey')).toBe('/credentials');
    const [fetch] = t.fake.requestsTo('get', '/users/two-factor/recover');
    expect(fetch?.query).toEqual({ twoFactorType: 'passkey', sessionID: passkeySessionID });
    const [remove] = t.fake.requestsTo('post', '/users/two-factor/remove');
    expect(remove?.body).toEqual({
      twoFactorType: 'passkey',
      sessionID: passkeySessionID,
      secret: passkeyRecoverySecret,
    });
    expect(savedUser()?.passkeySessionID).toBeUndefined();
    expect(savedInflightPasskeySessionID()).toBeUndefined();
    expect(await resumeWithStashedKEK()).toBe('/auth');
  });

  test('an accounts URL that is not http(s) is refused, not followed', () => {
    expect(() => keepPasskeyAccountsUrl('javascript:alert(1)')).toThrow(expect.objectContaining({ kind: 'server' }));
    expect(() => keepPasskeyAccountsUrl('not a url')).toThrow(expect.objectContaining({ kind: 'server' }));
    keepPasskeyAccountsUrl('https://accounts.example.org/');
    expect(savedPasskeyAccountsUrl()).toBe('https://accounts.example.org');
  });
});
