// Two-factor over real HTTP (protocol §6.2, §7.3): setup with its QR code, enable, the 2FA session
// handed out at login, verify with replay protection and the attempt limit, the recovery round trip
// through the recovery key, remove and disable.
import { decryptBoxBytes, encryptBoxB64, fromB64, toB64 } from '@ente/crypto';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { base32Decode, totpAt } from '../lib/totp.ts';
import { emailLogin, openToken, signUp, uniqueEmail, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

describe('two-factor', () => {
  const { server, api } = suiteServer();

  const codeNow = (secretCode: string, offsetSteps = 0) =>
    totpAt(base32Decode(secretCode), Math.floor(server.clock.nowMicros() / 1_000_000) + offsetSteps * 30);
  const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  /** Sets up and enables 2FA for the account as the web does; returns the secret code. */
  async function enableTwoFactor(account: Account): Promise<string> {
    const setup = await api.post('/users/two-factor/setup', undefined, { token: account.token });
    assert.equal(setup.status, 200, setup.text);
    const secret = await encryptBoxB64(fromB64(setup.body.secretCode), account.keys.recoveryKey);
    const enable = await api.post(
      '/users/two-factor/enable',
      {
        code: codeNow(setup.body.secretCode),
        encryptedTwoFactorSecret: secret.encryptedData,
        twoFactorSecretDecryptionNonce: secret.nonce,
      },
      { token: account.token },
    );
    assert.equal(enable.status, 200, enable.text);
    return setup.body.secretCode;
  }

  async function twoFactorSession(account: Account): Promise<string> {
    const login = await emailLogin(api, server.mail, account.email);
    assert.equal(login.status, 200);
    return login.body.twoFactorSessionID;
  }

  test('setup: a 32-character base32 secret and a 200×200 PNG; needs key attributes', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const setup = await api.post('/users/two-factor/setup', undefined, { token: account.token });
    assert.match(setup.body.secretCode, /^[A-Z2-7]{32}$/);
    const png = Buffer.from(setup.body.qrCode, 'base64');
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.readUInt32BE(16), 200);
    assert.equal(png.readUInt32BE(20), 200);

    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' });
    const bare = await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) });
    assert.equal((await api.post('/users/two-factor/setup', undefined, { token: bare.body.token })).status, 404);
  });

  test('enable needs a current code of the pending secret; status follows', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    api.token = account.token;
    assert.deepEqual((await api.get('/users/two-factor/status')).body, { status: false });
    const setup = await api.post('/users/two-factor/setup');
    const secret = await encryptBoxB64(fromB64(setup.body.secretCode), account.keys.recoveryKey);
    const body = { encryptedTwoFactorSecret: secret.encryptedData, twoFactorSecretDecryptionNonce: secret.nonce };
    const wrong = await api.post('/users/two-factor/enable', {
      ...body,
      code: otherCode(codeNow(setup.body.secretCode)),
    });
    assert.equal(wrong.status, 401);
    const stale = await api.post('/users/two-factor/enable', { ...body, code: codeNow(setup.body.secretCode, -2) });
    assert.equal(stale.status, 401, 'two steps old');
    const right = await api.post('/users/two-factor/enable', { ...body, code: codeNow(setup.body.secretCode, 1) });
    assert.equal(right.status, 200, 'one step ahead is accepted');
    assert.deepEqual((await api.get('/users/two-factor/status')).body, { status: true });
  });

  test('login hands out a 2FA session instead of a token; verify gives the token once per code', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const secretCode = await enableTwoFactor(account);
    const login = await emailLogin(api, server.mail, account.email);
    assert.match(login.body.twoFactorSessionID, /^[A-Za-z0-9_-]{43}=$/);
    assert.equal(login.body.twoFactorSessionIDV2, '');
    assert.equal(login.body.encryptedToken, undefined);
    assert.equal(login.body.token, undefined);
    assert.equal(login.body.keyAttributes, undefined);
    const sessionID = login.body.twoFactorSessionID;

    server.clock.advance(30_000_000); // a new step, so the code used to enable is not a replay
    const code = codeNow(secretCode);
    assert.equal((await api.post('/users/two-factor/verify', { sessionID, code: otherCode(code) })).status, 401);
    const verified = await api.post('/users/two-factor/verify', { sessionID, code });
    assert.equal(verified.status, 200, verified.text);
    assert.deepEqual(Object.keys(verified.body).sort(), ['encryptedToken', 'id', 'keyAttributes']);
    assert.equal(verified.body.id, account.userID);
    const token = await openToken(verified.body.encryptedToken, account.keys);
    assert.equal((await api.get('/users/session-validity/v2', { token })).status, 200);

    const replay = await api.post('/users/two-factor/verify', { sessionID: await twoFactorSession(account), code });
    assert.equal(replay.status, 401, 'a code is accepted once');
  });

  test('ten wrong codes lock the session with 429; sessions expire after 10 minutes (404)', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const secretCode = await enableTwoFactor(account);
    const sessionID = await twoFactorSession(account);
    server.clock.advance(30_000_000);
    const code = codeNow(secretCode);
    for (let i = 0; i < 10; i++) {
      assert.equal((await api.post('/users/two-factor/verify', { sessionID, code: otherCode(code) })).status, 401);
    }
    const locked = await api.post('/users/two-factor/verify', { sessionID, code });
    assert.equal(locked.status, 429);

    const fresh = await twoFactorSession(account);
    server.clock.advance(10 * 60_000_000 + 1);
    const expired = await api.post('/users/two-factor/verify', { sessionID: fresh, code: codeNow(secretCode) });
    assert.equal(expired.status, 404);
    const unknown = await api.post('/users/two-factor/verify', { sessionID: 'A'.repeat(43) + '=', code: '123456' });
    assert.equal(unknown.status, 404);
    const malformed = await api.post('/users/two-factor/verify', { sessionID: 'short', code: '123456' });
    assert.equal(malformed.status, 400);
  });

  test('recovery: the secret comes back through the recovery key and removes 2FA', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const secretCode = await enableTwoFactor(account);
    const sessionID = await twoFactorSession(account);
    const recover = await api.get('/users/two-factor/recover', { query: { sessionID, twoFactorType: 'totp' } });
    assert.equal(recover.status, 200);
    const opened = await decryptBoxBytes(
      { encryptedData: recover.body.encryptedSecret, nonce: recover.body.secretDecryptionNonce },
      account.keys.recoveryKey,
    );
    const secret = toB64(opened);
    assert.equal(secret, secretCode, 'the base32-as-base64 round trip gives the secret back');

    const wrong = await api.post('/users/two-factor/remove', {
      sessionID,
      secret: 'A'.repeat(32),
      twoFactorType: 'totp',
    });
    assert.equal(wrong.status, 403);
    const removed = await api.post('/users/two-factor/remove', { sessionID, secret, twoFactorType: 'totp' });
    assert.equal(removed.status, 200, removed.text);
    const token = await openToken(removed.body.encryptedToken, account.keys);
    assert.deepEqual((await api.get('/users/two-factor/status', { token })).body, { status: false });
    const login = await emailLogin(api, server.mail, account.email);
    assert.equal(login.body.twoFactorSessionID, '');
    assert.ok(login.body.encryptedToken);

    assert.equal(
      (await api.get('/users/two-factor/recover', { query: { sessionID: 'B'.repeat(43) + '=' } })).status,
      404,
    );
    assert.equal(
      (await api.get('/users/two-factor/recover', { query: { sessionID, twoFactorType: 'passkey' } })).status,
      400,
    );
  });

  test('disable needs only the token; verify on an account without 2FA is 400', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    await enableTwoFactor(account);
    const sessionID = await twoFactorSession(account);
    const disabled = await api.post('/users/two-factor/disable', undefined, { token: account.token });
    assert.equal(disabled.status, 200);
    assert.equal(disabled.text, '');
    const verify = await api.post('/users/two-factor/verify', { sessionID, code: '123456' });
    assert.equal(verify.status, 400);
  });
});
