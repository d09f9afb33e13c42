// Passkeys over real HTTP (docs/protocol.md#passkeys), with WebAuthn payloads from a software
// authenticator: the management token and where it works, registration (options, limits, bad payloads),
// the login answer, the login ceremony (sign counts, origins, RP ID, challenges, foreign credentials,
// replays, expiry), get-token, and recovery with the recovery key.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { decryptBoxBytes, encryptBoxB64, generateKeyB64, toB64 } from '@ente/crypto';
import type {
  AccountsTokenResponse,
  BeginPasskeyLoginResponse,
  BeginRegistrationResponse,
  EmailAuthorizationResponse,
  ListPasskeysResponse,
  RecoveryStatusResponse,
  TwoFactorAuthorizationResponse,
  TwoFactorRecoverResponse,
} from '@ente/protocol';

import { sha256B64Url } from '../lib/hashing.ts';
import { SoftAuthenticator, type SoftCredential } from '../testing/authenticator.ts';
import { emailLogin, emailLoginToken, openToken, signUp, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const MINUTE = 60_000_000;

describe('passkeys', () => {
  const { server, api } = suiteServer();
  const authenticator = new SoftAuthenticator();

  async function accountsToken(account: Account): Promise<string> {
    const answer = await api.get<AccountsTokenResponse>('/users/accounts-token', { token: account.token });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.accountsUrl, 'http://localhost:3001');
    return answer.body.accountsToken;
  }

  const begin = (token: string) =>
    api.post<BeginRegistrationResponse>('/passkeys/registration/begin', undefined, { token });
  const finish = (token: string, sessionID: string, body: unknown, friendlyName = 'YubiKey') =>
    api.post('/passkeys/registration/finish', body, { token, query: { friendlyName, sessionID } });
  const list = (token: string) => api.get<ListPasskeysResponse>('/passkeys', { token });

  /** Registers a passkey through the two ceremony calls; returns the authenticator's credential. */
  async function addPasskey(token: string, name = 'YubiKey'): Promise<SoftCredential> {
    const started = await begin(token);
    assert.equal(started.status, 200, started.text);
    const { credential, body } = authenticator.register(started.body.options.publicKey);
    const done = await finish(token, started.body.sessionID, body, name);
    assert.equal(done.status, 200, done.text);
    return credential;
  }

  async function accountWithPasskey() {
    const account = await signUp(api, server.mail, { srp: false });
    const token = await accountsToken(account);
    const credential = await addPasskey(token);
    return { account, token, credential };
  }

  async function passkeyLogin(account: Account) {
    const login = await emailLogin(api, server.mail, account.email);
    assert.equal(login.status, 200, login.text);
    return login.body as EmailAuthorizationResponse;
  }

  const loginBegin = (sessionID: string) =>
    api.post<BeginPasskeyLoginResponse>('/users/two-factor/passkeys/begin', { sessionID });
  const loginFinish = (
    sessionID: string,
    ceremonySessionID: string,
    body: unknown,
    clientPackage = 'io.ente.photos.web',
  ) =>
    api.post<TwoFactorAuthorizationResponse>('/users/two-factor/passkeys/finish', body, {
      query: { sessionID, ceremonySessionID, clientPackage },
      headers: { 'X-Client-Package': clientPackage },
    });

  test('the accounts token manages passkeys and nothing else; session tokens cannot manage them', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const token = await accountsToken(account);
    assert.match(token, /^acc2\.\d+\.\d+\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    const empty = await list(token);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { accountsUrl: 'http://localhost:3001', passkeys: null });

    const withSession = await list(account.token);
    assert.equal(withSession.status, 401);
    assert.deepEqual(withSession.body, { error: 'invalid token' });
    assert.equal((await api.get('/users/details/v2', { token })).status, 401);
    assert.equal((await api.get('/users/accounts-token', { token })).status, 401);

    const forged = token.replace(/\.(\d+)\./, (_, expiry: string) => `.${Number(expiry) + 1}.`);
    assert.equal((await list(forged)).status, 401);
    const otherUser = token.replace(/^acc2\.\d+/, `acc2.${account.userID + 1}`);
    assert.equal((await list(otherUser)).status, 401);
    // Another session's hash in place of its own: the signature no longer matches.
    const other = await emailLoginToken(api, server.mail, account);
    const otherSession = token.replace(/\.[A-Za-z0-9_-]{43}\./, `.${sha256B64Url(other).replace(/=$/, '')}.`);
    assert.equal((await list(otherSession)).status, 401);
    assert.deepEqual((await list('')).body, { error: 'missing token' });

    server.clock.advance(31 * MINUTE);
    assert.deepEqual((await list(token)).body, { error: 'token expired' });
  });

  test('the management token ends with the session that asked for it', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const token = await accountsToken(account);
    const elsewhere = await emailLoginToken(api, server.mail, account);
    const otherToken = await accountsToken({ ...account, token: elsewhere });
    assert.equal((await list(token)).status, 200);

    // Logging out the session of one management token ends it, and only it.
    assert.equal((await api.post('/users/logout', undefined, { token: account.token })).status, 200);
    const refused = await list(token);
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, { error: 'invalid token' });
    assert.equal((await begin(token)).status, 401);
    assert.equal((await list(otherToken)).status, 200);

    // Revoked from another device: the sessions list names it by its hash.
    const third = await emailLoginToken(api, server.mail, account);
    const revoked = await api.delete('/users/session', { token: third, query: { token: sha256B64Url(elsewhere) } });
    assert.equal(revoked.status, 200);
    assert.equal((await list(otherToken)).status, 401);
  });

  test('registration: museum options, the passkey listed, renamed, deleted', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const token = await accountsToken(account);
    const started = await begin(token);
    assert.equal(started.status, 200, started.text);
    const { publicKey } = started.body.options;
    assert.deepEqual(publicKey.rp, { name: 'Ente', id: 'localhost' });
    assert.equal(publicKey.user.name, account.email);
    assert.equal(publicKey.user.displayName, account.email);
    const handle = Buffer.from(publicKey.user.id, 'base64url');
    assert.equal(handle.length, 8);
    assert.equal(handle.readBigUInt64BE(), BigInt(account.userID));
    assert.match(publicKey.challenge, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      publicKey.pubKeyCredParams.map((param) => param.alg),
      [-7, -35, -36, -257, -258, -259, -37, -38, -39, -8],
    );
    assert.equal(publicKey.timeout, 300_000);

    const { credential, body } = authenticator.register(publicKey);
    assert.equal((await finish(token, started.body.sessionID, body, 'Phone 📱')).status, 200);
    // The session worked once.
    assert.equal((await finish(token, started.body.sessionID, body, 'again')).status, 404);

    const listed = await list(token);
    assert.equal(listed.body.passkeys?.length, 1);
    const passkey = listed.body.passkeys[0];
    assert.ok(passkey);
    assert.equal(passkey.friendlyName, 'Phone 📱');
    assert.equal(passkey.userID, account.userID);
    assert.equal(passkey.createdAt, server.clock.nowMicros());
    // Never used yet: no lastUsedAt.
    assert.equal('lastUsedAt' in passkey, false);

    // The same authenticator is excluded next time.
    const again = await begin(token);
    assert.deepEqual(
      again.body.options.publicKey.excludeCredentials?.map((descriptor) => descriptor.id),
      [credential.id.toString('base64url')],
    );

    const id = passkey.id;
    assert.equal(
      (await api.call('PATCH', `/passkeys/${id}`, { token, query: { friendlyName: 'Laptop' } })).status,
      200,
    );
    assert.equal((await list(token)).body.passkeys?.[0]?.friendlyName, 'Laptop');
    for (const bad of ['', 'a'.repeat(257), 'é'.repeat(129), 'tab\there', 'x\u0000'])
      assert.equal((await api.call('PATCH', `/passkeys/${id}`, { token, query: { friendlyName: bad } })).status, 400);
    assert.equal(
      (await api.call('PATCH', '/passkeys/not-a-uuid', { token, query: { friendlyName: 'x' } })).status,
      400,
    );
    assert.equal((await api.call('DELETE', '/passkeys/not-a-uuid', { token })).status, 400);

    // Another account cannot touch it.
    const stranger = await accountsToken(await signUp(api, server.mail, { srp: false }));
    assert.equal((await api.call('DELETE', `/passkeys/${id}`, { token: stranger })).status, 404);
    assert.equal(
      (await api.call('PATCH', `/passkeys/${id}`, { token: stranger, query: { friendlyName: 'mine' } })).status,
      404,
    );

    assert.equal((await api.call('DELETE', `/passkeys/${id}`, { token })).status, 200);
    assert.equal((await list(token)).body.passkeys, null);
    assert.equal((await api.call('DELETE', `/passkeys/${id}`, { token })).status, 404);
  });

  test("registration refuses a wrong origin, RP ID, challenge or type, another user's session, an expired one", async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const token = await accountsToken(account);
    for (const tamper of [
      { origin: 'https://evil.example' },
      { rpID: 'evil.example' },
      { challenge: Buffer.alloc(32, 7).toString('base64url') },
      { type: 'webauthn.get' },
    ]) {
      const started = await begin(token);
      const { body } = authenticator.register(started.body.options.publicKey, tamper);
      const refused = await finish(token, started.body.sessionID, body);
      assert.equal(refused.status, 400, JSON.stringify(tamper));
      assert.equal(refused.body.code, 'BAD_REQUEST');
    }
    const started = await begin(token);
    const { body } = authenticator.register(started.body.options.publicKey);
    const stranger = await accountsToken(await signUp(api, server.mail, { srp: false }));
    assert.equal((await finish(stranger, started.body.sessionID, body)).status, 404);
    // The stranger's attempt did not consume it; the timeout does.
    server.clock.advance(5 * MINUTE + 1);
    const late = await finish(token, started.body.sessionID, body);
    assert.equal(late.status, 410);
    assert.equal(late.body.code, 'SESSION_EXPIRED');
    // Garbage bodies are 400s.
    const fresh = await begin(token);
    for (const garbage of [
      {},
      { ...body, type: 'other' },
      { ...body, id: 'not base64!' },
      { ...body, response: { attestationObject: 'AAAA', clientDataJSON: 'AAAA' } },
    ])
      assert.equal((await finish(token, fresh.body.sessionID, garbage)).status, 400);
    assert.equal((await list(token)).body.passkeys, null);
  });

  test('at most 10 live passkeys', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const token = await accountsToken(account);
    for (let i = 0; i < 10; i++) await addPasskey(token, `key ${i}`);
    const eleventh = await begin(token);
    assert.equal(eleventh.status, 409);
    assert.deepEqual(eleventh.body, { code: 'MAX_PASSKEYS_REACHED', message: 'Max passkeys limit reached' });
    const [first] = (await list(token)).body.passkeys ?? [];
    await api.call('DELETE', `/passkeys/${first?.id ?? ''}`, { token });
    assert.equal((await begin(token)).status, 200);
  });

  test('login with a passkey: the answer, the ceremony, a token for the requesting app', async () => {
    const { account, credential, token: manage } = await accountWithPasskey();
    const login = await passkeyLogin(account);
    assert.match(login.passkeySessionID, /^[A-Za-z0-9_-]{43}=$/);
    assert.equal(login.accountsUrl, 'http://localhost:3001');
    assert.equal(login.twoFactorSessionID, '');
    assert.equal(login.encryptedToken, undefined);

    const started = await loginBegin(login.passkeySessionID);
    assert.equal(started.status, 200, started.text);
    const { publicKey } = started.body.options;
    assert.equal(publicKey.rpId, 'localhost');
    assert.equal(publicKey.timeout, 120_000);
    assert.equal(publicKey.userVerification, 'preferred');
    assert.deepEqual(
      publicKey.allowCredentials?.map((descriptor) => descriptor.id),
      [credential.id.toString('base64url')],
    );

    const handle = Buffer.alloc(8);
    handle.writeBigUInt64BE(BigInt(account.userID));
    const body = authenticator.assert(credential, publicKey, { userHandle: handle.toString('base64url') });
    const done = await loginFinish(login.passkeySessionID, started.body.ceremonySessionID, body);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.id, account.userID);
    const token = await openToken(done.body.encryptedToken, account.keys);
    // The token belongs to the app of X-Client-Package (photos), not to the accounts app.
    const photos = await api.call('GET', '/users/session-validity/v2', {
      token,
      headers: { 'X-Client-Package': 'io.ente.photos.web' },
    });
    assert.equal(photos.status, 200);
    assert.equal((await api.get('/users/session-validity/v2', { token })).status, 401);
    // The list says when it last signed in.
    assert.equal((await list(manage)).body.passkeys?.[0]?.lastUsedAt, server.clock.nowMicros());

    // Verified: begin again is 409, and the same ceremony cannot be replayed.
    const claimed = await loginBegin(login.passkeySessionID);
    assert.deepEqual(claimed.body, { code: 'SESSION_ALREADY_CLAIMED', message: 'Session is already claimed' });
    assert.equal((await loginFinish(login.passkeySessionID, started.body.ceremonySessionID, body)).status, 404);

    // get-token: twice, then no more.
    const fetchToken = () =>
      api.get('/users/two-factor/passkeys/get-token', { query: { sessionID: login.passkeySessionID } });
    assert.deepEqual((await fetchToken()).body, done.body);
    assert.equal((await fetchToken()).status, 200);
    const third = await fetchToken();
    assert.equal(third.status, 410);
    assert.equal(third.body.code, 'INVALID_SESSION');
  });

  test('the login ceremony refuses what it must', async () => {
    const { account, credential } = await accountWithPasskey();
    const other = await accountWithPasskey();
    const login = await passkeyLogin(account);
    const attempt = async (make: (publicKey: { challenge: string }) => unknown) => {
      const started = await loginBegin(login.passkeySessionID);
      assert.equal(started.status, 200, started.text);
      return loginFinish(login.passkeySessionID, started.body.ceremonySessionID, make(started.body.options.publicKey));
    };
    const refusals = {
      origin: (pk: { challenge: string }) => authenticator.assert(credential, pk, { origin: 'https://evil.example' }),
      rpID: (pk: { challenge: string }) => authenticator.assert(credential, pk, { rpID: 'evil.example' }),
      challenge: (pk: { challenge: string }) =>
        authenticator.assert(credential, pk, { challenge: Buffer.alloc(32, 1).toString('base64url') }),
      foreignCredential: (pk: { challenge: string }) => authenticator.assert(other.credential, pk),
      foreignUserHandle: (pk: { challenge: string }) =>
        authenticator.assert(credential, pk, { userHandle: Buffer.alloc(8, 9).toString('base64url') }),
    };
    // A first good assertion raises the stored count to 5.
    const good = await attempt((pk) => authenticator.assert(credential, pk, { signCount: 5 }));
    assert.equal(good.status, 200, good.text);
    const second = await passkeyLogin(account);
    login.passkeySessionID = second.passkeySessionID;
    for (const [name, make] of Object.entries(refusals)) {
      const refused = await attempt(make);
      assert.equal(refused.status, 401, name);
      assert.deepEqual(refused.body, { code: 'BAD_REQUEST', message: 'Invalid signature' }, name);
    }
    // Still possible with a right one; a ceremony of another login session is not.
    const otherLogin = await passkeyLogin(other.account);
    const otherCeremony = await loginBegin(otherLogin.passkeySessionID);
    const wrongPair = await loginFinish(
      login.passkeySessionID,
      otherCeremony.body.ceremonySessionID,
      authenticator.assert(credential, otherCeremony.body.options.publicKey),
    );
    assert.equal(wrongPair.status, 404);
    assert.equal((await attempt((pk) => authenticator.assert(credential, pk, { signCount: 6 }))).status, 200);
  });

  test('a sign count that did not grow: its own error, said only of a signature that is otherwise right', async () => {
    const { account, credential } = await accountWithPasskey();
    const login = await passkeyLogin(account);
    const attempt = async (make: (publicKey: { challenge: string }) => unknown) => {
      const started = await loginBegin(login.passkeySessionID);
      assert.equal(started.status, 200, started.text);
      return loginFinish(login.passkeySessionID, started.body.ceremonySessionID, make(started.body.options.publicKey));
    };
    const good = await attempt((pk) => authenticator.assert(credential, pk, { signCount: 5 }));
    assert.equal(good.status, 200, good.text);
    login.passkeySessionID = (await passkeyLogin(account)).passkeySessionID;

    // A copy of the authenticator replays counts the original already used: 5 again, then 3.
    for (const signCount of [5, 3]) {
      const replayed = await attempt((pk) => authenticator.assert(credential, pk, { signCount }));
      assert.equal(replayed.status, 401, `count ${signCount}`);
      assert.equal(replayed.body.code, 'PASSKEY_SIGN_COUNT_NOT_INCREASED');
      assert.match(replayed.body.message ?? '', /copy or restored/);
    }
    // With another fault too (the wrong origin) it is a plain refused signature: nothing is confirmed.
    const both = await attempt((pk) =>
      authenticator.assert(credential, pk, { signCount: 2, origin: 'https://evil.example' }),
    );
    assert.deepEqual(both.body, { code: 'BAD_REQUEST', message: 'Invalid signature' });
    const rows = await server.sql(
      `SELECT sign_count FROM passkey_credentials WHERE credential_id = '${credential.id.toString('base64url')}'`,
    );
    assert.deepEqual(rows, [{ sign_count: '5' }], 'the stored count stays');
    // The login session is not spent: a count past the stored one signs in.
    assert.equal((await attempt((pk) => authenticator.assert(credential, pk, { signCount: 6 }))).status, 200);
  });

  test('expired ceremonies and login sessions, unknown sessions, malformed input', async () => {
    const { account, credential } = await accountWithPasskey();
    const login = await passkeyLogin(account);
    const started = await loginBegin(login.passkeySessionID);
    server.clock.advance(2 * MINUTE + 1);
    const late = await loginFinish(
      login.passkeySessionID,
      started.body.ceremonySessionID,
      authenticator.assert(credential, started.body.options.publicKey),
    );
    assert.equal(late.status, 410);
    assert.equal(late.body.code, 'SESSION_EXPIRED');
    const pending = await api.get('/users/two-factor/passkeys/get-token', {
      query: { sessionID: login.passkeySessionID },
    });
    assert.equal(pending.status, 400);
    assert.equal(pending.body.code, 'SESSION_NOT_VERIFIED');
    server.clock.advance(8 * MINUTE);
    assert.equal((await loginBegin(login.passkeySessionID)).status, 404);
    assert.equal(
      (await api.get('/users/two-factor/passkeys/get-token', { query: { sessionID: login.passkeySessionID } })).status,
      404,
    );

    const unknown = Buffer.alloc(32, 3).toString('base64url') + '=';
    assert.equal((await loginBegin(unknown)).status, 404);
    for (const bad of [{}, { sessionID: 'short' }, { sessionID: 7 }, { sessionID: `${unknown}\u0000` }])
      assert.equal((await api.post('/users/two-factor/passkeys/begin', bad)).status, 400);
    assert.equal((await api.get('/users/two-factor/passkeys/get-token')).status, 400);
    const fresh = await passkeyLogin(account);
    assert.equal((await loginFinish(fresh.passkeySessionID, 'not-a-uuid', {})).status, 400);
  });

  test('TOTP and a passkey: both sessions, TOTP as V2', async () => {
    const { account } = await accountWithPasskey();
    await server.sql(`UPDATE users SET is_two_factor_enabled = TRUE WHERE user_id = ${account.userID}`);
    const login = await passkeyLogin(account);
    assert.match(login.passkeySessionID, /=$/);
    assert.equal(login.twoFactorSessionID, '');
    assert.match(login.twoFactorSessionIDV2, /^[A-Za-z0-9_-]{43}=$/);
  });

  test('deleting the last passkey turns the passkey step off', async () => {
    const { account, token } = await accountWithPasskey();
    const [passkey] = (await list(token)).body.passkeys ?? [];
    await api.call('DELETE', `/passkeys/${passkey?.id ?? ''}`, { token });
    const login = await passkeyLogin(account);
    assert.equal(login.passkeySessionID, '');
    assert.equal(login.accountsUrl, '');
    assert.ok(login.encryptedToken);
  });

  test('recovery: configured once, then the recovery key signs in and the passkeys stay', async () => {
    const { account, token } = await accountWithPasskey();
    const status = () => api.get<RecoveryStatusResponse>('/users/two-factor/recovery-status', { token: account.token });
    assert.deepEqual((await status()).body, { allowAdminReset: true, isPasskeyRecoveryEnabled: false });

    const login = await passkeyLogin(account);
    const notConfigured = await api.get('/users/two-factor/recover', {
      query: { twoFactorType: 'passkey', sessionID: login.passkeySessionID },
    });
    assert.equal(notConfigured.status, 400);

    const secret = await generateKeyB64();
    const box = await encryptBoxB64(Buffer.from(secret, 'base64'), account.keys.recoveryKey);
    const configure = (body: unknown) =>
      api.post('/users/two-factor/passkeys/configure-recovery', body, { token: account.token });
    const config = { secret, userSecretCipher: box.encryptedData, userSecretNonce: box.nonce };
    for (const bad of [{}, { ...config, secret: 'short' }, { ...config, userSecretNonce: 'AAAA' }])
      assert.equal((await configure(bad)).status, 400);
    assert.equal((await configure(config)).status, 200);
    assert.deepEqual((await status()).body, { allowAdminReset: true, isPasskeyRecoveryEnabled: true });
    // Write-once.
    const other = await encryptBoxB64(Buffer.alloc(32, 1), account.keys.recoveryKey);
    assert.equal(
      (
        await configure({
          secret: toB64(Buffer.alloc(32, 1)),
          userSecretCipher: other.encryptedData,
          userSecretNonce: other.nonce,
        })
      ).status,
      200,
    );

    const recover = await api.get<TwoFactorRecoverResponse>('/users/two-factor/recover', {
      query: { twoFactorType: 'passkey', sessionID: login.passkeySessionID },
    });
    assert.equal(recover.status, 200, recover.text);
    const opened = await decryptBoxBytes(
      { encryptedData: recover.body.encryptedSecret, nonce: recover.body.secretDecryptionNonce },
      account.keys.recoveryKey,
    );
    const remove = (value: string) =>
      api.post<TwoFactorAuthorizationResponse>('/users/two-factor/remove', {
        twoFactorType: 'passkey',
        sessionID: login.passkeySessionID,
        secret: value,
      });
    assert.equal((await remove(toB64(Buffer.alloc(32, 1)))).status, 403);
    const removed = await remove(toB64(opened));
    assert.equal(removed.status, 200, removed.text);
    assert.ok(await openToken(removed.body.encryptedToken, account.keys));
    assert.equal((await list(token)).body.passkeys?.length, 1);
    const unknown = Buffer.alloc(32, 4).toString('base64url') + '=';
    assert.equal(
      (await api.get('/users/two-factor/recover', { query: { twoFactorType: 'passkey', sessionID: unknown } })).status,
      404,
    );
  });
});
