// Two-factor over real HTTP (docs/protocol.md#two-factor, docs/protocol.md#lost-second-factor): setup
// with its QR code, enable, the 2FA session handed out at login, verify with replay protection and the
// attempt limit, the recovery round trip through the recovery key, remove and disable.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { decryptBoxBytes, encryptBoxB64, fromB64, toB64 } from '@ente/crypto';
import type {
  TwoFactorAuthorizationResponse,
  TwoFactorRecoverResponse,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from '@ente/protocol';

import { base32Decode, totpAt } from '../lib/totp.ts';
import { emailLogin, openToken, signUp, startSignUp, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const STEP = 30_000_000;

describe('two-factor', () => {
  const { server, api } = suiteServer();

  const codeNow = (secretCode: string, offsetSteps = 0) =>
    totpAt(base32Decode(secretCode), Math.floor(server.clock.nowMicros() / 1_000_000) + offsetSteps * 30);
  const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  /** The code of a step no test used yet: a code counts once per user, whatever the session. */
  const freshCode = (secretCode: string) => {
    server.clock.advance(STEP);
    return codeNow(secretCode);
  };

  /** POST /users/two-factor/setup for the account. */
  async function setUp(account: Account) {
    const setup = await api.post<TwoFactorSetupResponse>('/users/two-factor/setup', undefined, {
      token: account.token,
    });
    assert.equal(setup.status, 200, setup.text);
    const secret = await encryptBoxB64(fromB64(setup.body.secretCode), account.keys.recoveryKey);
    const encrypted = { encryptedTwoFactorSecret: secret.encryptedData, twoFactorSecretDecryptionNonce: secret.nonce };
    const enable = (code: string) =>
      api.post('/users/two-factor/enable', { ...encrypted, code }, { token: account.token });
    return { secretCode: setup.body.secretCode, qrCode: setup.body.qrCode, enable };
  }

  /** Sets up and enables 2FA for the account as the web does; returns the secret code. */
  async function enableTwoFactor(account: Account): Promise<string> {
    const { secretCode, enable } = await setUp(account);
    const enabled = await enable(codeNow(secretCode));
    assert.equal(enabled.status, 200, enabled.text);
    return secretCode;
  }

  /** An account with 2FA enabled. */
  async function twoFactorAccount() {
    const account = await signUp(api, server.mail, { srp: false });
    return { account, secretCode: await enableTwoFactor(account) };
  }

  async function twoFactorSession(account: Account): Promise<string> {
    const login = await emailLogin(api, server.mail, account.email);
    assert.equal(login.status, 200);
    return login.body.twoFactorSessionID;
  }

  const statusOf = async (token: string) =>
    (await api.get<TwoFactorStatusResponse>('/users/two-factor/status', { token })).body;
  const verify = (sessionID: string, code: string) =>
    api.post<TwoFactorAuthorizationResponse>('/users/two-factor/verify', { sessionID, code });

  describe('setup and enable', () => {
    /** One account with 2FA set up but not enabled, for the tests that leave it so. */
    let account: Account;
    let pending: Awaited<ReturnType<typeof setUp>>;
    before(async () => {
      account = await signUp(api, server.mail, { srp: false });
      pending = await setUp(account);
    });

    test('setup answers a 32-character base32 secret and a 200×200 PNG QR code', () => {
      assert.match(pending.secretCode, /^[A-Z2-7]{32}$/);
      const png = Buffer.from(pending.qrCode, 'base64');
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      assert.equal(png.readUInt32BE(16), 200);
      assert.equal(png.readUInt32BE(20), 200);
    });

    test('setup without key attributes is 404', async () => {
      const { token } = await startSignUp(api, server.mail);
      assert.equal((await api.post('/users/two-factor/setup', undefined, { token })).status, 404);
    });

    test('enable with a wrong code is 401 and leaves 2FA off', async () => {
      assert.equal((await pending.enable(otherCode(codeNow(pending.secretCode)))).status, 401);
      assert.deepEqual(await statusOf(account.token), { status: false });
    });

    test('enable with a code two steps old is 401', async () => {
      assert.equal((await pending.enable(codeNow(pending.secretCode, -2))).status, 401);
    });

    test('enable with a code one step ahead turns 2FA on', async () => {
      const account = await signUp(api, server.mail, { srp: false });
      const { secretCode, enable } = await setUp(account);
      assert.equal((await enable(codeNow(secretCode, 1))).status, 200);
      assert.deepEqual(await statusOf(account.token), { status: true });
    });
  });

  describe('login with 2FA on', () => {
    /** One account for the tests that neither disable 2FA nor use its codes of the current step. */
    let account: Account;
    let secretCode: string;
    before(async () => {
      ({ account, secretCode } = await twoFactorAccount());
    });

    test('a login answers a 2FA session ID instead of a token', async () => {
      const login = await emailLogin(api, server.mail, account.email);
      assert.match(login.body.twoFactorSessionID, /^[A-Za-z0-9_-]{43}=$/);
      assert.equal(login.body.twoFactorSessionIDV2, '');
      assert.equal(login.body.encryptedToken, undefined);
      assert.equal(login.body.token, undefined);
      assert.equal(login.body.keyAttributes, undefined);
    });

    test('verify with a wrong code is 401', async () => {
      const sessionID = await twoFactorSession(account);
      assert.equal((await verify(sessionID, otherCode(freshCode(secretCode)))).status, 401);
    });

    test('verify with the current code answers the ID, key attributes and a sealed token that works', async () => {
      const verified = await verify(await twoFactorSession(account), freshCode(secretCode));
      assert.equal(verified.status, 200, verified.text);
      assert.deepEqual(Object.keys(verified.body).sort(), ['encryptedToken', 'id', 'keyAttributes']);
      assert.equal(verified.body.id, account.userID);
      const token = await openToken(verified.body.encryptedToken, account.keys);
      assert.equal((await api.get('/users/session-validity/v2', { token })).status, 200);
    });

    test('a code is accepted once per user, even in another session: the replay is 401', async () => {
      const code = freshCode(secretCode);
      assert.equal((await verify(await twoFactorSession(account), code)).status, 200);
      assert.equal((await verify(await twoFactorSession(account), code)).status, 401);
    });

    test('ten wrong codes lock the session: 429 even for the right code', async () => {
      const sessionID = await twoFactorSession(account);
      const code = freshCode(secretCode);
      for (let i = 0; i < 10; i++) assert.equal((await verify(sessionID, otherCode(code))).status, 401, `try ${i}`);
      assert.equal((await verify(sessionID, code)).status, 429);
    });

    test('a 2FA session expires after 10 minutes: 404', async () => {
      const sessionID = await twoFactorSession(account);
      server.clock.advance(10 * 60_000_000 + 1);
      assert.equal((await verify(sessionID, codeNow(secretCode))).status, 404);
    });

    test('an unknown session ID is 404', async () => {
      assert.equal((await verify('A'.repeat(43) + '=', '123456')).status, 404);
    });

    test('a malformed session ID is 400', async () => {
      assert.equal((await verify('short', '123456')).status, 400);
    });
  });

  const recover = (query: Record<string, string>) =>
    api.get<TwoFactorRecoverResponse>('/users/two-factor/recover', { query });

  /** The secret as the web recovers it in the 2FA session: decrypted with the recovery key, as b64. */
  async function recoveredSecret(account: Account, sessionID: string): Promise<string> {
    const answer = await recover({ sessionID, twoFactorType: 'totp' });
    assert.equal(answer.status, 200, answer.text);
    const { encryptedSecret, secretDecryptionNonce } = answer.body;
    const opened = await decryptBoxBytes(
      { encryptedData: encryptedSecret, nonce: secretDecryptionNonce },
      account.keys.recoveryKey,
    );
    return toB64(opened);
  }

  describe('recovery', () => {
    let account: Account;
    let secretCode: string;
    before(async () => {
      ({ account, secretCode } = await twoFactorAccount());
    });

    test('recover answers the secret encrypted to the recovery key', async () => {
      const secret = await recoveredSecret(account, await twoFactorSession(account));
      assert.equal(secret, secretCode, 'the base32-as-base64 round trip gives it back');
    });

    test('remove with a wrong secret is 403', async () => {
      const sessionID = await twoFactorSession(account);
      const wrong = await api.post('/users/two-factor/remove', {
        sessionID,
        secret: 'A'.repeat(32),
        twoFactorType: 'totp',
      });
      assert.equal(wrong.status, 403);
    });

    test('recover with an unknown session is 404', async () => {
      assert.equal((await recover({ sessionID: 'B'.repeat(43) + '=' })).status, 404);
    });

    test('passkey recovery with a TOTP session is 404 (it takes a passkey session)', async () => {
      const sessionID = await twoFactorSession(account);
      assert.equal((await recover({ sessionID, twoFactorType: 'passkey' })).status, 404);
    });
  });

  test('remove with the recovered secret turns 2FA off and answers a sealed token', async () => {
    const { account } = await twoFactorAccount();
    const sessionID = await twoFactorSession(account);
    const secret = await recoveredSecret(account, sessionID);
    const removed = await api.post<TwoFactorAuthorizationResponse>('/users/two-factor/remove', {
      sessionID,
      secret,
      twoFactorType: 'totp',
    });
    assert.equal(removed.status, 200, removed.text);
    const token = await openToken(removed.body.encryptedToken, account.keys);
    assert.deepEqual(await statusOf(token), { status: false });
    const login = await emailLogin(api, server.mail, account.email);
    assert.equal(login.body.twoFactorSessionID, '');
    assert.ok(login.body.encryptedToken);
  });

  test('disable needs only the token: empty 200 and 2FA off', async () => {
    const { account } = await twoFactorAccount();
    const disabled = await api.post('/users/two-factor/disable', undefined, { token: account.token });
    assert.equal(disabled.status, 200);
    assert.equal(disabled.text, '');
    assert.deepEqual(await statusOf(account.token), { status: false });
  });

  test('verify in a 2FA session of an account that has since turned 2FA off is 400', async () => {
    const { account } = await twoFactorAccount();
    const sessionID = await twoFactorSession(account);
    await api.post('/users/two-factor/disable', undefined, { token: account.token });
    assert.equal((await verify(sessionID, '123456')).status, 400);
  });
});
