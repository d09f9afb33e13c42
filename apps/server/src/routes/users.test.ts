// Account endpoints over real HTTP (docs/protocol.md#e-mail-codes to docs/protocol.md#account, and
// docs/protocol.md#e-mail-code-rules): e-mail codes with their limits, verification, key attributes,
// recovery key, e-mail change, details, e-mail MFA and public keys.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { generateKeyAttributes, type GeneratedKeys } from '@ente/crypto';
import type {
  EmailAuthorizationResponse,
  PublicKeyResponse,
  SessionValidityResponse,
  UserDetailsResponse,
} from '@ente/protocol';

import { emailLogin, openToken, signUp, startSignUp, uniqueEmail, vectorKek, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const MINUTE = 60 * 1_000_000;

/** A six-digit code that is none of `codes`. */
const otherCode = (...codes: string[]) => ['000000', '000001', '000002'].find((code) => !codes.includes(code)) ?? '';

describe('with the default configuration', () => {
  const { server, api } = suiteServer();

  describe('e-mail codes', () => {
    /** An account with key attributes, shared by the tests that only ask codes for it. */
    let registered: Account;
    before(async () => {
      registered = await signUp(api, server.mail, { srp: false });
    });

    test('a code is six digits, mailed to the normalised address as "Verification code: NNNNNN"', async () => {
      const email = uniqueEmail();
      const sent = await api.post('/users/ott', { email: `  ${email.toUpperCase()} `, purpose: 'signup' });
      assert.equal(sent.status, 200);
      assert.equal(sent.text, '', 'the answer is empty');
      const message = server.mail.messages.at(-1);
      assert.ok(message);
      assert.equal(message.to, email);
      assert.match(message.subject, /^Verification code: \d{6}$/);
      assert.match(message.text, new RegExp(server.mail.lastCode(email)));
    });

    /** The mails sent to `email` from now on. */
    const mailFrom = (email: string) => {
      const start = server.mail.messages.length;
      return () => server.mail.messages.slice(start).filter((message) => message.to === email);
    };

    test('login for an unknown address answers as for an account (empty 200), mails nothing, and verify says "wrong code"', async () => {
      const email = uniqueEmail();
      const mailed = mailFrom(email);
      const answer = await api.post('/users/ott', { email, purpose: 'login' });
      const known = await api.post('/users/ott', { email: registered.email, purpose: 'login' });
      assert.equal(answer.status, known.status);
      assert.equal(answer.text, known.text);
      assert.deepEqual(mailed(), []);
      const verify = await api.post('/users/verify-email', { email, ott: '123456' });
      assert.equal(verify.status, 401);
      assert.deepEqual(verify.body, {});
    });

    test('login before the key attributes are set mails a code, which resumes the signup', async () => {
      const { email, userID } = await startSignUp(api, server.mail);
      assert.equal((await api.post('/users/ott', { email, purpose: 'login' })).status, 200);
      const resumed = await api.post<EmailAuthorizationResponse>('/users/verify-email', {
        email,
        ott: server.mail.lastCode(email),
      });
      assert.equal(resumed.body.id, userID);
      assert.equal(resumed.body.keyAttributes, undefined);
    });

    test('signup may resume before the key attributes are set', async () => {
      const { email } = await startSignUp(api, server.mail);
      assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 200);
    });

    test('signup for a registered address is an empty 200; the owner gets a code that signs in, and is told why', async () => {
      const account = await signUp(api, server.mail, { srp: false });
      const answer = await api.post('/users/ott', { email: account.email, purpose: 'signup' }, { token: null });
      assert.equal(answer.status, 200);
      assert.equal(answer.text, '');
      const message = server.mail.messages.at(-1);
      assert.equal(message?.to, account.email);
      assert.match(message.text, /already have an account/);
      const login = await api.post<EmailAuthorizationResponse>(
        '/users/verify-email',
        { email: account.email, ott: server.mail.lastCode(account.email) },
        { token: null },
      );
      assert.equal(login.body.id, account.userID);
      assert.ok(login.body.keyAttributes, 'a login, not a second signup');
    });

    test('"change" to a registered address is an empty 200; the owner gets a notice, no code, and change-email says "wrong code"', async () => {
      const account = await signUp(api, server.mail, { srp: false });
      const mailed = mailFrom(registered.email);
      const answer = await api.post('/users/ott', { email: registered.email, purpose: 'change' });
      assert.equal(answer.status, 200);
      assert.equal(answer.text, '');
      const [notice, ...more] = mailed();
      assert.deepEqual(more, []);
      assert.match(notice?.subject ?? '', /already in use/);
      assert.doesNotMatch(notice?.text ?? '', /\d{6}/);
      const change = await api.post(
        '/users/change-email',
        { email: registered.email, ott: '123456' },
        { token: account.token },
      );
      assert.equal(change.status, 401);
    });

    test('an address no mail server on the internet could reach is 400, with nothing sent or stored', async () => {
      const before = server.mail.messages.length;
      for (const email of ['x@localhost', 'x@[127.0.0.1]', 'x@intranet', 'x@example.123']) {
        const answer = await api.post('/users/ott', { email, purpose: 'signup' });
        assert.equal(answer.status, 400, email);
        assert.match(answer.body.message ?? '', /^email: must be at an internet domain/);
        const attributes = await api.get('/users/srp/attributes', { query: { email } });
        assert.equal(attributes.status, 400, email);
      }
      assert.equal(server.mail.messages.length, before);
      const stored = await server.sql(`SELECT id FROM otts WHERE email LIKE 'x@%'`);
      assert.deepEqual(stored, []);
    });

    test('a registered address gets a code for "login", no purpose and an empty purpose', async () => {
      const account = await signUp(api, server.mail, { srp: false });
      for (const purpose of ['login', undefined, '']) {
        const mailed = mailFrom(account.email);
        const answer = await api.post('/users/ott', { email: account.email, purpose });
        assert.equal(answer.status, 200, `purpose ${String(purpose)}`);
        assert.match(mailed()[0]?.subject ?? '', /^Verification code: \d{6}$/);
      }
    });

    test('bad input is 400 BAD_REQUEST naming the field', async () => {
      for (const [body, field] of [
        [{ email: '' }, 'email'],
        [{ email: '   ' }, 'email'],
        [{ email: 'no-at-sign' }, 'email'],
        [{ email: 'x@localhost' }, 'email'],
        [{ email: 'x@[127.0.0.1]' }, 'email'],
        [{ email: 'x@192.168.1.1' }, 'email'],
        [{ email: 'x@printer.local' }, 'email'],
        [{ email: 42 }, 'email'],
        [{ email: uniqueEmail(), purpose: 'steal' }, 'purpose'],
        [{}, 'email'],
        [[], 'body'],
        [undefined, 'body'],
      ] as const) {
        const answer = await api.post('/users/ott', body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(answer.body.code, 'BAD_REQUEST');
        assert.ok(answer.body.message?.startsWith(`${field}:`), answer.body.message);
      }
    });

    test('a fourth live code asked by one client address for an e-mail and app is 429 {}', async () => {
      const email = uniqueEmail();
      for (let i = 0; i < 3; i++) assert.equal((await api.post('/users/ott', { email })).status, 200);
      const limited = await api.post('/users/ott', { email });
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.body, {});
      assert.equal((await api.as('io.ente.photos.web').post('/users/ott', { email })).status, 200, 'another app');
    });

    test('verify without a live code is 410 {}', async () => {
      const answer = await api.post('/users/verify-email', { email: uniqueEmail(), ott: '123456' });
      assert.equal(answer.status, 410);
      assert.deepEqual(answer.body, {});
    });

    test('verify with a wrong code is 401 {}', async () => {
      const email = uniqueEmail();
      await api.post('/users/ott', { email, purpose: 'signup' });
      const answer = await api.post('/users/verify-email', { email, ott: otherCode(server.mail.lastCode(email)) });
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, {});
    });

    test('the right code (spaces around it ignored) starts a signup: an ID and a plain token', async () => {
      const email = uniqueEmail();
      await api.post('/users/ott', { email, purpose: 'signup' });
      const answer = await api.post<EmailAuthorizationResponse>('/users/verify-email', {
        email,
        ott: ` ${server.mail.lastCode(email)} `,
      });
      assert.equal(answer.status, 200);
      assert.equal(typeof answer.body.id, 'number');
      assert.match(answer.body.token ?? '', /^[A-Za-z0-9_-]{43}=$/);
      assert.equal(answer.body.keyAttributes, undefined);
      assert.equal(answer.body.encryptedToken, undefined);
      assert.equal(answer.body.twoFactorSessionID, '');
      assert.equal(answer.body.accountsUrl, '');
    });

    test('a code is single use: 410 once it verified', async () => {
      const email = uniqueEmail();
      await api.post('/users/ott', { email, purpose: 'signup' });
      const code = server.mail.lastCode(email);
      assert.equal((await api.post('/users/verify-email', { email, ott: code })).status, 200);
      assert.equal((await api.post('/users/verify-email', { email, ott: code })).status, 410);
    });

    test('a code expires after its lifetime: 410', async () => {
      const email = uniqueEmail();
      await api.post('/users/ott', { email });
      const code = server.mail.lastCode(email);
      server.clock.advance(server.config.OTT_LIFETIME_MINUTES * MINUTE + 1);
      assert.equal((await api.post('/users/verify-email', { email, ott: code })).status, 410);
    });

    test('one client address gets nine tries at an e-mail address per code lifetime; the tenth is 429 {}', async () => {
      const email = uniqueEmail();
      await api.post('/users/ott', { email, purpose: 'signup' });
      const code = server.mail.lastCode(email);
      for (let i = 0; i < 9; i++) {
        assert.equal((await api.post('/users/verify-email', { email, ott: otherCode(code) })).status, 401, `try ${i}`);
      }
      const limited = await api.post('/users/verify-email', { email, ott: code });
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.body, {});
      server.clock.advance(server.config.OTT_LIFETIME_MINUTES * MINUTE);
      await api.post('/users/ott', { email, purpose: 'signup' });
      const fresh = await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) });
      assert.equal(fresh.status, 200, 'a new window and a fresh code');
    });

    test('a refused request does not consume the code: a NUL in source is 400, then the code works', async () => {
      const email = uniqueEmail();
      await api.post('/users/ott', { email, purpose: 'signup' });
      const ott = server.mail.lastCode(email);
      for (const source of ['web:a\u0000b', 'web:\ud800']) {
        const refused = await api.post('/users/verify-email', { email, ott, source });
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.code, 'BAD_REQUEST');
      }
      assert.equal((await api.post('/users/verify-email', { email, ott, source: 'web:ok' })).status, 200);
    });

    test('codes are scoped per app: one asked by auth is unknown to photos and stays usable', async () => {
      const email = uniqueEmail();
      await api.post('/users/ott', { email, purpose: 'signup' });
      const photos = api.as('io.ente.photos.web');
      assert.equal((await photos.post('/users/verify-email', { email, ott: server.mail.lastCode(email) })).status, 410);
      assert.equal((await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) })).status, 200);
    });

    test('a login by code returns the key attributes and a sealed token that works', async () => {
      const account = await signUp(api, server.mail, { srp: false });
      const login = await emailLogin(api, server.mail, account.email);
      assert.equal(login.status, 200);
      assert.equal(login.body.id, account.userID);
      assert.equal(login.body.token, undefined);
      assert.deepEqual(login.body.keyAttributes, { ...account.keys.keyAttributes, kekHash: '' });
      const token = await openToken(login.body.encryptedToken, account.keys);
      assert.equal((await api.get('/users/session-validity/v2', { token })).status, 200);
    });

    test('a login mails a notice; the signup token does not', async () => {
      const account = await signUp(api, server.mail, { srp: false });
      const notices = () => server.mail.messages.filter((m) => m.to === account.email && /New login/.test(m.subject));
      assert.equal(notices().length, 0);
      await emailLogin(api, server.mail, account.email);
      assert.equal(notices().length, 1);
    });
  });

  describe('key attributes', () => {
    let keys: GeneratedKeys;
    before(async () => {
      keys = await generateKeyAttributes('password', () => Promise.resolve({ ...vectorKek }));
    });
    const putAttributes = async (token: string, keyAttributes: object) =>
      api.put('/users/attributes', { keyAttributes }, { token });

    test('session validity says no keys before they are set, and returns them after', async () => {
      const { token } = await startSignUp(api, server.mail);
      const before = await api.get<SessionValidityResponse>('/users/session-validity/v2', { token });
      assert.deepEqual(before.body, { hasSetKeys: false });
      assert.equal((await putAttributes(token, keys.keyAttributes)).status, 200);
      const after = await api.get<SessionValidityResponse>('/users/session-validity/v2', { token });
      assert.equal(after.body.hasSetKeys, true);
      assert.equal(after.body.keyAttributes?.publicKey, keys.keyAttributes.publicKey);
    });

    test('they are set once: a second PUT is 403', async () => {
      const { token } = await startSignUp(api, server.mail);
      assert.equal((await putAttributes(token, keys.keyAttributes)).status, 200);
      assert.equal((await putAttributes(token, keys.keyAttributes)).status, 403);
    });

    test('a KDF weaker than the protocol asks is 400 "Unexpected KDF strength"', async () => {
      const { token } = await startSignUp(api, server.mail);
      const answer = await putAttributes(token, { ...keys.keyAttributes, opsLimit: 2 });
      assert.deepEqual(answer.body, { code: 'BAD_REQUEST', message: 'Unexpected KDF strength' });
    });

    test('less than 128 MiB of KDF memory is 400, even at the right strength', async () => {
      const { token } = await startSignUp(api, server.mail);
      const answer = await putAttributes(token, { ...keys.keyAttributes, opsLimit: 64, memLimit: 67108864 });
      assert.deepEqual(answer.body, { code: 'BAD_REQUEST', message: 'memory limit must be at least 128MB' });
    });

    test('a missing or malformed field is 400 naming it', async () => {
      const { token } = await startSignUp(api, server.mail);
      const { kekSalt: _kekSalt, ...missingSalt } = keys.keyAttributes;
      const missing = await putAttributes(token, missingSalt);
      assert.equal(missing.status, 400);
      assert.match(missing.body.message ?? '', /^keyAttributes\.kekSalt:/);
      const badB64 = await putAttributes(token, { ...keys.keyAttributes, publicKey: 'not base64!' });
      assert.match(badB64.body.message ?? '', /^keyAttributes\.publicKey: invalid base64 encoding/);
    });
  });

  describe('recovery key', () => {
    let recovery: Record<string, string>;
    let withoutRecovery: object;
    before(async () => {
      const keys = await generateKeyAttributes('password', () => Promise.resolve({ ...vectorKek }));
      const {
        masterKeyEncryptedWithRecoveryKey,
        masterKeyDecryptionNonce,
        recoveryKeyEncryptedWithMasterKey,
        recoveryKeyDecryptionNonce,
        ...rest
      } = keys.keyAttributes;
      recovery = {
        masterKeyEncryptedWithRecoveryKey,
        masterKeyDecryptionNonce,
        recoveryKeyEncryptedWithMasterKey,
        recoveryKeyDecryptionNonce,
      };
      withoutRecovery = rest;
    });

    /** A user whose key attributes were set without the recovery fields (as older clients did). */
    async function userWithoutRecovery(): Promise<string> {
      const { token } = await startSignUp(api, server.mail);
      assert.equal((await api.put('/users/attributes', { keyAttributes: withoutRecovery }, { token })).status, 200);
      return token;
    }
    const keyAttributesOf = async (token: string) =>
      (await api.get<SessionValidityResponse>('/users/session-validity/v2', { token })).body.keyAttributes;

    test('without key attributes PUT /users/recovery-key is 404', async () => {
      const { token } = await startSignUp(api, server.mail);
      assert.equal((await api.put('/users/recovery-key', recovery, { token })).status, 404);
    });

    test('unset recovery fields (and kekHash) come back as ""', async () => {
      const attributes = await keyAttributesOf(await userWithoutRecovery());
      assert.ok(attributes);
      assert.equal(attributes.masterKeyEncryptedWithRecoveryKey, '');
      assert.equal(attributes.recoveryKeyDecryptionNonce, '');
      assert.equal(attributes.kekHash, '');
    });

    test('PUT /users/recovery-key fills them', async () => {
      const token = await userWithoutRecovery();
      assert.equal((await api.put('/users/recovery-key', recovery, { token })).status, 200);
      const attributes = await keyAttributesOf(token);
      assert.equal(attributes?.masterKeyEncryptedWithRecoveryKey, recovery.masterKeyEncryptedWithRecoveryKey);
    });

    test('a second PUT /users/recovery-key is 409 CONFLICT', async () => {
      const token = await userWithoutRecovery();
      await api.put('/users/recovery-key', recovery, { token });
      const second = await api.put('/users/recovery-key', recovery, { token });
      assert.equal(second.status, 409);
      assert.equal(second.body.code, 'CONFLICT');
    });
  });

  describe('change e-mail', () => {
    /** A new account, and a "change" code mailed to a new address for it. */
    async function changeCode() {
      const account = await signUp(api, server.mail, { srp: false });
      const email = uniqueEmail('renamed');
      assert.equal((await api.post('/users/ott', { email, purpose: 'change' })).status, 200);
      return { account, email, ott: server.mail.lastCode(email) };
    }

    test('a wrong code is 401', async () => {
      const { email, ott } = await changeCode();
      assert.equal((await api.post('/users/change-email', { email, ott: otherCode(ott) })).status, 401);
    });

    test('the right code moves the account to the new address (empty 200)', async () => {
      const { account, email, ott } = await changeCode();
      const changed = await api.post('/users/change-email', { email, ott });
      assert.equal(changed.status, 200);
      assert.equal(changed.text, '');
      assert.equal((await api.get<UserDetailsResponse>('/users/details/v2')).body.email, email);
      const start = server.mail.messages.length;
      await api.post('/users/ott', { email: account.email, purpose: 'login' });
      assert.ok(
        !server.mail.messages.slice(start).some((m) => m.to === account.email),
        'the old address has no account any more: a login mails it no code',
      );
    });

    test('the old address is told of the change', async () => {
      const { account, email, ott } = await changeCode();
      await api.post('/users/change-email', { email, ott });
      assert.ok(server.mail.messages.some((m) => m.to === account.email && /changed/.test(m.subject)));
    });

    test("taking another account's address is 403, even with a valid code", async () => {
      const other = await signUp(api, server.mail, { srp: false });
      await signUp(api, server.mail, { srp: false }); // the account that asks, now api's
      await api.post('/users/ott', { email: other.email });
      const taken = await api.post('/users/change-email', {
        email: other.email,
        ott: server.mail.lastCode(other.email),
      });
      assert.equal(taken.status, 403);
    });
  });

  describe('details and e-mail MFA', () => {
    test('details: the e-mail, a file count when asked, and the profile flags', async () => {
      const account = await signUp(api, server.mail, { srp: false });
      const details = await api.get<UserDetailsResponse>('/users/details/v2', { query: { memoryCount: 'true' } });
      assert.equal(details.status, 200);
      assert.equal(details.body.email, account.email);
      assert.equal(details.body.fileCount, 0);
      assert.deepEqual(details.body.profileData, {
        canDisableEmailMFA: false,
        isEmailMFAEnabled: false,
        isTwoFactorEnabled: false,
        passkeyCount: 0,
      });
    });

    test("details: a free plan of a year's period that has not expired (Ente's photos app parses both)", async () => {
      await signUp(api, server.mail, { srp: false });
      const { subscription } = (await api.get<UserDetailsResponse>('/users/details/v2')).body;
      assert.equal(subscription.productID, 'free');
      assert.equal(subscription.period, 'year');
      assert.ok(subscription.expiryTime > (Date.now() + 50 * 365 * 86_400_000) * 1000);
    });

    test('e-mail MFA turned on shows in the details', async () => {
      await signUp(api, server.mail, { srp: false });
      assert.equal((await api.put('/users/email-mfa', { isEnabled: true })).status, 200);
      const details = await api.get<UserDetailsResponse>('/users/details/v2');
      assert.equal(details.body.profileData.isEmailMFAEnabled, true);
    });

    test('turning e-mail MFA off without SRP is 409 CONFLICT', async () => {
      await signUp(api, server.mail, { srp: false });
      await api.put('/users/email-mfa', { isEnabled: true });
      const cannot = await api.put('/users/email-mfa', { isEnabled: false });
      assert.equal(cannot.status, 409);
      assert.equal(cannot.body.code, 'CONFLICT');
    });

    test('e-mail MFA set to a non-boolean is 400', async () => {
      await signUp(api, server.mail, { srp: false });
      assert.equal((await api.put('/users/email-mfa', { isEnabled: 'no' })).status, 400);
    });
  });

  describe('public keys', () => {
    let asker: Account;
    before(async () => {
      asker = await signUp(api, server.mail, { srp: false });
    });

    test("another user's public key by e-mail", async () => {
      const other = await signUp(api, server.mail, { srp: false });
      const found = await api.get<PublicKeyResponse>('/users/public-key', {
        query: { email: other.email },
        token: asker.token,
      });
      assert.deepEqual(found.body, { publicKey: other.keys.keyAttributes.publicKey });
    });

    test('an unknown e-mail is 404 NOT_FOUND', async () => {
      const unknown = await api.get('/users/public-key', { query: { email: uniqueEmail() }, token: asker.token });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'NOT_FOUND');
    });
  });
});

describe('fixed e-mail codes', () => {
  const { server, api } = suiteServer({
    env: {
      FIXED_OTTS: 'fixed@example.com,111111',
      FIXED_OTT_DOMAIN_SUFFIX: '@fixed.example.org',
      FIXED_OTT_DOMAIN_CODE: '222222',
    },
  });
  const mailTo = (email: string) => server.mail.messages.filter((message) => message.to === email);

  test('a listed address verifies with its fixed code and gets no mail', async () => {
    await api.post('/users/ott', { email: 'fixed@example.com', purpose: 'signup' });
    assert.equal((await api.post('/users/verify-email', { email: 'fixed@example.com', ott: '111111' })).status, 200);
    assert.deepEqual(mailTo('fixed@example.com'), []);
  });

  test('an address under the fixed domain verifies with the domain code and gets no mail', async () => {
    await api.post('/users/ott', { email: 'someone@fixed.example.org', purpose: 'signup' });
    assert.equal(
      (await api.post('/users/verify-email', { email: 'someone@fixed.example.org', ott: '222222' })).status,
      200,
    );
    assert.deepEqual(mailTo('someone@fixed.example.org'), []);
  });

  test('"change" gets a random, mailed code even for a fixed address', async () => {
    await api.post('/users/ott', { email: 'new@fixed.example.org', purpose: 'change' });
    assert.equal(mailTo('new@fixed.example.org').length, 1);
  });
});

describe('guessing e-mail codes from several client addresses', () => {
  // The client address comes from X-Forwarded-For here, so one test can speak from many.
  const { server, api } = suiteServer({ env: { TRUST_PROXY: '127.0.0.1' } });
  const photos = () => api.as('io.ente.photos.web');
  const from = (ip: string) => ({ headers: { 'X-Forwarded-For': ip } });
  /** `count` wrong guesses (none of `codes`) at `email`, spread over addresses of `prefix` (under nine each). */
  async function guessWrong(email: string, codes: string[], count: number, prefix: string) {
    for (let i = 0; i < count; i++) {
      const answer = await api.post(
        '/users/verify-email',
        { email, ott: otherCode(...codes) },
        from(`${prefix}.${i % 4}`),
      );
      assert.equal(answer.status, 401, `guess ${i}`);
    }
  }

  test('twenty wrong guesses at one app kill the live codes of every app; a freshly sent code works', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' });
    const authCode = server.mail.lastCode(email);
    await photos().post('/users/ott', { email, purpose: 'signup' });
    const photosCode = server.mail.lastCode(email);
    await guessWrong(email, [authCode, photosCode], 20, '198.51.100');
    const dead = await api.post('/users/verify-email', { email, ott: authCode }, from('192.0.2.1'));
    assert.equal(dead.status, 429, 'the right auth code met its twenty guesses');
    const deadToo = await photos().post('/users/verify-email', { email, ott: photosCode }, from('192.0.2.1'));
    assert.equal(deadToo.status, 429, 'so did the photos code: guesses count across apps');

    await api.post('/users/ott', { email, purpose: 'signup' }, from('192.0.2.1'));
    const fresh = await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) }, from('192.0.2.1'));
    assert.equal(fresh.status, 200, 'the person is not locked out');
  });

  test('codes killed by guessing do not count towards the live ones', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 3; i++) assert.equal((await api.post('/users/ott', { email })).status, 200);
    assert.equal((await api.post('/users/ott', { email })).status, 429, 'three usable codes from here are live');
    await server.sql(`UPDATE otts SET wrong_attempts = 20 WHERE email = '${email}'`);
    assert.equal((await api.post('/users/ott', { email })).status, 200);
  });

  test("a stranger's sends from many addresses cannot keep the person from getting a code", async () => {
    const email = uniqueEmail();
    const mailed = () => server.mail.messages.filter((message) => message.to === email).length;
    // Thirty stranger addresses ask three codes each: the ten live codes are theirs, and the
    // address's hourly budget (20) is spent; past it each stranger address gets its first only.
    let refused = 0;
    for (let source = 0; source < 30; source++) {
      for (let i = 0; i < 3; i++) {
        const answer = await api.post('/users/ott', { email, purpose: 'signup' }, from(`198.51.102.${source}`));
        if (answer.status === 429) refused++;
        else assert.equal(answer.status, 200);
      }
    }
    assert.ok(refused > 0, 'the inbox is protected');
    assert.ok(mailed() <= 20 + 30, `at most the budget plus one per stranger address (${mailed()})`);
    const live = await server.sql(`SELECT count(*)::int AS n FROM otts WHERE email = '${email}'`);
    assert.deepEqual(live, [{ n: 10 }], 'never more than ten live codes');

    const person = from('192.0.2.40');
    assert.equal((await api.post('/users/ott', { email, purpose: 'signup' }, person)).status, 200);
    const verified = await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) }, person);
    assert.equal(verified.status, 200, 'the newest code is live: the oldest made room for it');
    server.clock.advance(60 * MINUTE); // the next tests start with no recent sends
  });

  test('a right code gives the other live codes back the guess it reserved', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email });
    const first = server.mail.lastCode(email);
    await photos().post('/users/ott', { email });
    const second = server.mail.lastCode(email);
    await guessWrong(email, [first, second], 5, '198.51.101');
    const right = await api.post('/users/verify-email', { email, ott: first }, from('192.0.2.2'));
    assert.equal(right.status, 200, right.text);
    const rows = await server.sql(`SELECT wrong_attempts FROM otts WHERE email = '${email}'`);
    assert.deepEqual(rows, [{ wrong_attempts: 5 }]);
    const other = await photos().post('/users/verify-email', { email, ott: second }, from('192.0.2.2'));
    assert.equal(other.status, 200, 'the photos code still works');
  });

  test('the tries of one address do not hold back another', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' });
    const code = server.mail.lastCode(email);
    for (let i = 0; i < 9; i++)
      await api.post('/users/verify-email', { email, ott: otherCode(code) }, from('203.0.113.7'));
    assert.equal((await api.post('/users/verify-email', { email, ott: code }, from('203.0.113.7'))).status, 429);
    assert.equal((await api.post('/users/verify-email', { email, ott: code }, from('192.0.2.3'))).status, 200);
  });

  test('two hundred new addresses from as many client addresses trip the breaker; an account still gets its login code', async () => {
    server.clock.advance(60 * MINUTE);
    const account = await signUp(api, server.mail, { srp: false });
    server.clock.advance(60 * MINUTE);
    const mailedTo = (email: string) => server.mail.messages.filter((message) => message.to === email).length;
    const hard = server.config.OTT_SEND_HARD_LIMIT;
    for (let i = 0; i < hard; i++) {
      const email = uniqueEmail('mass');
      const answer = await api.post('/users/ott', { email, purpose: 'signup' }, from(`10.9.${i >> 8}.${i & 255}`));
      assert.equal(answer.status, 200);
      assert.equal(mailedTo(email), 1, `send ${i} is mailed`);
    }
    const held = uniqueEmail('mass');
    const answer = await api.post('/users/ott', { email: held, purpose: 'signup' }, from('10.9.200.1'));
    assert.equal(answer.status, 200, 'held back, answered as a send');
    assert.equal(answer.text, '');
    assert.equal(mailedTo(held), 0, 'not mailed');
    const guess = await api.post('/users/verify-email', { email: held, ott: '123456' }, from('10.9.200.1'));
    assert.equal(guess.status, 401, 'its verify answers as for a wrong code');

    const login = await emailLogin(api, server.mail, account.email);
    assert.equal(login.status, 200, 'the account got its login code and signed in');
    assert.equal(login.body.id, account.userID);
    server.clock.advance(60 * MINUTE);
  });
});

describe('the send limiter', () => {
  const { server, api } = suiteServer({ env: { OTT_SEND_SOFT_LIMIT: '2', OTT_SEND_HARD_LIMIT: '4' } });
  const send = async () => (await api.post('/users/ott', { email: uniqueEmail() })).status;
  /** Moves past every send window and block, so each test starts from no recent sends. */
  const quietHour = () => server.clock.advance(60 * MINUTE);

  test('past the soft limit, an IP that already sent may send again only after 5 minutes', async () => {
    quietHour();
    assert.equal(await send(), 200);
    assert.equal(await send(), 200);
    assert.equal(await send(), 429, 'this IP already sent within 5 minutes');
    server.clock.advance(5 * MINUTE + 1);
    assert.equal(await send(), 200);
  });

  test('past the hard limit, codes to new addresses are held back for 10 minutes, codes to accounts are not', async () => {
    quietHour();
    const account = await signUp(api, server.mail, { srp: false });
    quietHour();
    // Mail to new addresses from "other IPs" reaches the hard limit.
    const now = server.clock.nowMicros();
    for (let i = 0; i < 4; i++) {
      await server.sql(`INSERT INTO ott_sends (ip, sent_at, kind) VALUES ('10.0.0.${i}', ${now}, 'new')`);
    }
    const before = server.mail.messages.length;
    const email = uniqueEmail();
    assert.equal((await api.post('/users/ott', { email })).status, 200, 'held, not refused');
    assert.equal(server.mail.messages.length, before, 'and not mailed');
    assert.equal((await api.post('/users/verify-email', { email, ott: '123456' })).status, 401);
    server.clock.advance(5 * MINUTE + 1);
    const login = await emailLogin(api, server.mail, account.email);
    assert.equal(login.status, 200, 'an account still gets its login code');
    assert.equal((await api.post('/users/ott', { email: uniqueEmail() })).status, 200);
    assert.equal(server.mail.messages.length, before + 2, 'still held after the send window: only the login code went');
    server.clock.advance(5 * MINUTE + 1);
    assert.equal(await send(), 200);
    assert.equal(server.mail.messages.length, before + 3, 'mailed again after 10 minutes');
  });
});

describe('DISABLE_REGISTRATION', () => {
  const { server, api } = suiteServer({ env: { DISABLE_REGISTRATION: 'true' } });

  test('a signup code for a new address is 403', async () => {
    assert.equal((await api.post('/users/ott', { email: uniqueEmail(), purpose: 'signup' })).status, 403);
  });

  test('a signup code for a registered address is 403 too', async () => {
    const email = uniqueEmail();
    await server.sql(`INSERT INTO users (email, created_at) VALUES ('${email}', 0)`);
    assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 403);
  });

  test('a code without purpose for a new address is held (empty 200, no mail); verify says "wrong code"', async () => {
    const email = uniqueEmail();
    assert.equal((await api.post('/users/ott', { email })).status, 200);
    assert.deepEqual(
      server.mail.messages.filter((message) => message.to === email),
      [],
    );
    assert.equal((await api.post('/users/verify-email', { email, ott: '123456' })).status, 401);
  });

  test('an account still gets its login code', async () => {
    const email = uniqueEmail();
    await server.sql(`INSERT INTO users (email, created_at) VALUES ('${email}', 0)`);
    const login = await emailLogin(api, server.mail, email);
    assert.equal(login.status, 200);
  });
});
