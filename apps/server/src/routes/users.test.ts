// Account endpoints over real HTTP (protocol §6.1, §6.3–§6.5, §9.2): e-mail codes with their limits,
// verification, key attributes, recovery key, e-mail change, details, e-mail MFA and public keys.
import { generateKeyAttributes } from '@ente/crypto';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiClient } from '../testing/client.ts';
import { emailLogin, openToken, signUp, uniqueEmail, vectorKek } from '../testing/flows.ts';
import { startTestServer, suiteServer } from '../testing/server.ts';

const MINUTE = 60 * 1_000_000;

describe('e-mail codes', () => {
  const { server, api } = suiteServer();

  test('a code is six digits, mailed with the subject "Verification code: NNNNNN", answer empty', async () => {
    const email = uniqueEmail();
    const sent = await api.post('/users/ott', { email: `  ${email.toUpperCase()} `, purpose: 'signup' });
    assert.equal(sent.status, 200);
    assert.equal(sent.text, '');
    const message = server.mail.messages.at(-1)!;
    assert.equal(message.to, email);
    assert.match(message.subject, /^Verification code: \d{6}$/);
    assert.match(message.text, new RegExp(server.mail.lastCode(email)));
  });

  test('purpose rules: 404 USER_NOT_REGISTERED, 404 USER_SIGNUP_INCOMPLETE, 409, 403 for change', async () => {
    const email = uniqueEmail();
    const notRegistered = await api.post('/users/ott', { email, purpose: 'login' });
    assert.equal(notRegistered.status, 404);
    assert.equal(notRegistered.body.code, 'USER_NOT_REGISTERED');

    await api.post('/users/ott', { email, purpose: 'signup' });
    await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) });
    const incomplete = await api.post('/users/ott', { email, purpose: 'login' });
    assert.equal(incomplete.status, 404);
    assert.equal(incomplete.body.code, 'USER_SIGNUP_INCOMPLETE');
    assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 200, 'signup may resume');

    const account = await signUp(api, server.mail, { srp: false });
    const registered = await api.post('/users/ott', { email: account.email, purpose: 'signup' });
    assert.equal(registered.status, 409);
    assert.equal(registered.body.code, 'USER_ALREADY_REGISTERED');
    const taken = await api.post('/users/ott', { email: account.email, purpose: 'change' });
    assert.equal(taken.status, 403);
    assert.deepEqual(taken.body, {});
    assert.equal((await api.post('/users/ott', { email: account.email, purpose: 'login' })).status, 200);
    assert.equal((await api.post('/users/ott', { email: account.email })).status, 200, 'no purpose');
    assert.equal((await api.post('/users/ott', { email: account.email, purpose: '' })).status, 200, '"" purpose');
  });

  test('bad input is 400 BAD_REQUEST naming the field', async () => {
    for (const [body, field] of [
      [{ email: '' }, 'email'],
      [{ email: '   ' }, 'email'],
      [{ email: 'no-at-sign' }, 'email'],
      [{ email: 42 }, 'email'],
      [{ email: uniqueEmail(), purpose: 'steal' }, 'purpose'],
      [{}, 'email'],
      [[], 'body'],
    ] as const) {
      const answer = await api.post('/users/ott', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.code, 'BAD_REQUEST');
      assert.ok(answer.body.message.startsWith(`${field}:`), answer.body.message);
    }
    const noBody = await api.post('/users/ott');
    assert.equal(noBody.status, 400);
    assert.match(noBody.body.message, /^body:/);
  });

  test('ten live codes per e-mail and app, then 429; another app has its own ten', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 10; i++) assert.equal((await api.post('/users/ott', { email })).status, 200);
    const limited = await api.post('/users/ott', { email });
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, {});
    assert.equal((await api.as('io.ente.photos.web').post('/users/ott', { email })).status, 200);
  });

  test('verify: 410 with no live code, 401 for a wrong one, single use, expiry after the lifetime', async () => {
    const email = uniqueEmail();
    const none = await api.post('/users/verify-email', { email, ott: '123456' });
    assert.equal(none.status, 410);
    assert.deepEqual(none.body, {});

    await api.post('/users/ott', { email, purpose: 'signup' });
    const code = server.mail.lastCode(email);
    const wrongCode = code === '000000' ? '000001' : '000000';
    const wrong = await api.post('/users/verify-email', { email, ott: wrongCode });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, {});
    const right = await api.post('/users/verify-email', { email, ott: ` ${code} ` });
    assert.equal(right.status, 200);
    assert.equal(typeof right.body.id, 'number');
    assert.match(right.body.token, /^[A-Za-z0-9_-]{43}=$/);
    assert.equal(right.body.keyAttributes, undefined);
    assert.equal(right.body.encryptedToken, undefined);
    assert.equal(right.body.twoFactorSessionID, '');
    assert.equal(right.body.accountsUrl, '');
    const reused = await api.post('/users/verify-email', { email, ott: code });
    assert.equal(reused.status, 410, 'the code was deleted');

    await api.post('/users/ott', { email });
    const later = server.mail.lastCode(email);
    server.clock.advance(server.config.OTT_LIFETIME_MINUTES * MINUTE + 1);
    assert.equal((await api.post('/users/verify-email', { email, ott: later })).status, 410);
  });

  test('twenty wrong attempts lock verification with 429, even for the right code', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' });
    const code = server.mail.lastCode(email);
    const wrongCode = code === '999999' ? '999998' : '999999';
    for (let i = 0; i < 20; i++) {
      assert.equal((await api.post('/users/verify-email', { email, ott: wrongCode })).status, 401, `attempt ${i}`);
    }
    const locked = await api.post('/users/verify-email', { email, ott: code });
    assert.equal(locked.status, 429);
    assert.deepEqual(locked.body, {});
  });

  test('codes are scoped per app: one asked by auth cannot be verified by photos', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' });
    const photos = api.as('io.ente.photos.web');
    assert.equal((await photos.post('/users/verify-email', { email, ott: server.mail.lastCode(email) })).status, 410);
    assert.equal((await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) })).status, 200);
  });

  test('a login by code on a complete account returns key attributes and a sealed token', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const notices = () => server.mail.messages.filter((m) => m.to === account.email && /New login/.test(m.subject));
    assert.equal(notices().length, 0, 'no login notice for the signup token');
    const login = await emailLogin(api, server.mail, account.email);
    assert.equal(login.status, 200);
    assert.equal(notices().length, 1, 'a login notice for the new token');
    assert.equal(login.body.id, account.userID);
    assert.equal(login.body.token, undefined);
    assert.deepEqual(login.body.keyAttributes, {
      ...account.keys.keyAttributes,
      kekHash: '',
    });
    const token = await openToken(login.body.encryptedToken, account.keys);
    assert.equal((await api.get('/users/session-validity/v2', { token })).status, 200);
  });
});

describe('e-mail code configuration', () => {
  test('fixed codes for configured addresses send no mail and never apply to "change"', async () => {
    const server = await startTestServer({
      env: {
        FIXED_OTTS: 'fixed@example.com,111111',
        FIXED_OTT_DOMAIN_SUFFIX: '@test.local',
        FIXED_OTT_DOMAIN_CODE: '222222',
      },
    });
    try {
      const api = new ApiClient(server.url);
      await api.post('/users/ott', { email: 'fixed@example.com', purpose: 'signup' });
      await api.post('/users/ott', { email: 'someone@test.local', purpose: 'signup' });
      assert.equal(server.mail.messages.length, 0);
      assert.equal((await api.post('/users/verify-email', { email: 'fixed@example.com', ott: '111111' })).status, 200);
      assert.equal((await api.post('/users/verify-email', { email: 'someone@test.local', ott: '222222' })).status, 200);
      await api.post('/users/ott', { email: 'new@test.local', purpose: 'change' });
      assert.equal(server.mail.messages.length, 1, '"change" gets a random, mailed code');
      assert.notEqual(server.mail.lastCode('new@test.local'), undefined);
    } finally {
      await server.close();
    }
  });

  test('the disclosure budget: past it, "not registered" answers become a silent 200', async () => {
    const server = await startTestServer({ env: { DISCLOSURE_LIMIT_PER_HOUR: '2' } });
    try {
      const api = new ApiClient(server.url);
      assert.equal((await api.post('/users/ott', { email: uniqueEmail(), purpose: 'login' })).status, 404);
      assert.equal((await api.post('/users/ott', { email: uniqueEmail(), purpose: 'login' })).status, 404);
      const swallowed = await api.post('/users/ott', { email: uniqueEmail(), purpose: 'login' });
      assert.equal(swallowed.status, 200);
      assert.equal(server.mail.messages.length, 0, 'nothing is sent');
    } finally {
      await server.close();
    }
  });

  test('the send limiter: past the soft limit one code per IP per 5 minutes; past the hard limit none', async () => {
    const server = await startTestServer({ env: { OTT_SEND_SOFT_LIMIT: '2', OTT_SEND_HARD_LIMIT: '4' } });
    try {
      const api = new ApiClient(server.url);
      assert.equal((await api.post('/users/ott', { email: uniqueEmail() })).status, 200);
      assert.equal((await api.post('/users/ott', { email: uniqueEmail() })).status, 200);
      assert.equal((await api.post('/users/ott', { email: uniqueEmail() })).status, 429, 'this IP already sent');
      server.clock.advance(5 * MINUTE + 1);
      assert.equal((await api.post('/users/ott', { email: uniqueEmail() })).status, 200);
      // Make the global count reach the hard limit from "other IPs".
      const now = server.clock.nowMicros();
      for (let i = 0; i < 3; i++) {
        await server.sql(`INSERT INTO ott_sends (ip, sent_at) VALUES ('10.0.0.${i}', ${now})`);
      }
      const blocked = await api.post('/users/ott', { email: uniqueEmail() });
      assert.equal(blocked.status, 429);
      server.clock.advance(5 * MINUTE + 1);
      assert.equal((await api.post('/users/ott', { email: uniqueEmail() })).status, 429, 'blocked for 10 minutes');
      server.clock.advance(5 * MINUTE + 1);
      assert.equal((await api.post('/users/ott', { email: uniqueEmail() })).status, 200);
    } finally {
      await server.close();
    }
  });

  test('DISABLE_REGISTRATION refuses new accounts with 403', async () => {
    const server = await startTestServer({ env: { DISABLE_REGISTRATION: 'true' } });
    try {
      const api = new ApiClient(server.url);
      const email = uniqueEmail();
      assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 403);
      await api.post('/users/ott', { email });
      assert.equal((await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) })).status, 403);
    } finally {
      await server.close();
    }
  });
});

describe('account', () => {
  const { server, api } = suiteServer();

  async function newUserWithoutKeys() {
    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' });
    const verified = await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) });
    return { email, token: verified.body.token as string, userID: verified.body.id as number };
  }

  test('key attributes: once only (403), KDF strength and memory floor, named bad fields', async () => {
    const { token } = await newUserWithoutKeys();
    const before = await api.get('/users/session-validity/v2', { token });
    assert.deepEqual(before.body, { hasSetKeys: false });
    const keys = await generateKeyAttributes('password', async () => ({ ...vectorKek }));
    const attrs = keys.keyAttributes;

    const weak = await api.put('/users/attributes', { keyAttributes: { ...attrs, opsLimit: 2 } }, { token });
    assert.deepEqual(weak.body, { code: 'BAD_REQUEST', message: 'Unexpected KDF strength' });
    const lowMemory = await api.put(
      '/users/attributes',
      { keyAttributes: { ...attrs, opsLimit: 64, memLimit: 67108864 } },
      { token },
    );
    assert.deepEqual(lowMemory.body, { code: 'BAD_REQUEST', message: 'memory limit must be at least 128MB' });
    const { kekSalt: _kekSalt, ...missingSalt } = attrs;
    const missing = await api.put('/users/attributes', { keyAttributes: missingSalt }, { token });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /^keyAttributes\.kekSalt:/);
    const badB64 = await api.put(
      '/users/attributes',
      { keyAttributes: { ...attrs, publicKey: 'not base64!' } },
      { token },
    );
    assert.match(badB64.body.message, /^keyAttributes\.publicKey: invalid base64 encoding/);

    assert.equal((await api.put('/users/attributes', { keyAttributes: attrs }, { token })).status, 200);
    assert.equal((await api.put('/users/attributes', { keyAttributes: attrs }, { token })).status, 403);
    const after = await api.get('/users/session-validity/v2', { token });
    assert.equal(after.body.hasSetKeys, true);
    assert.equal(after.body.keyAttributes.publicKey, attrs.publicKey);
  });

  test('unset recovery fields come back as "", and PUT /users/recovery-key fills them once', async () => {
    const { token } = await newUserWithoutKeys();
    const keys = await generateKeyAttributes('password', async () => ({ ...vectorKek }));
    const {
      masterKeyEncryptedWithRecoveryKey,
      masterKeyDecryptionNonce,
      recoveryKeyEncryptedWithMasterKey,
      recoveryKeyDecryptionNonce,
      ...withoutRecovery
    } = keys.keyAttributes;
    const recovery = {
      masterKeyEncryptedWithRecoveryKey,
      masterKeyDecryptionNonce,
      recoveryKeyEncryptedWithMasterKey,
      recoveryKeyDecryptionNonce,
    };
    assert.equal((await api.put('/users/recovery-key', recovery, { token })).status, 404, 'no key attributes yet');
    assert.equal((await api.put('/users/attributes', { keyAttributes: withoutRecovery }, { token })).status, 200);
    const legacy = await api.get('/users/session-validity/v2', { token });
    assert.equal(legacy.body.keyAttributes.masterKeyEncryptedWithRecoveryKey, '');
    assert.equal(legacy.body.keyAttributes.recoveryKeyDecryptionNonce, '');
    assert.equal(legacy.body.keyAttributes.kekHash, '');
    assert.equal((await api.put('/users/recovery-key', recovery, { token })).status, 200);
    const second = await api.put('/users/recovery-key', recovery, { token });
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'CONFLICT');
    const filled = await api.get('/users/session-validity/v2', { token });
    assert.equal(filled.body.keyAttributes.masterKeyEncryptedWithRecoveryKey, masterKeyEncryptedWithRecoveryKey);
  });

  test('change e-mail with a "change" code sent to the new address', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const other = await signUp(api, server.mail, { srp: false });
    api.token = account.token;
    const newEmail = uniqueEmail('renamed');
    assert.equal((await api.post('/users/ott', { email: newEmail, purpose: 'change' })).status, 200);
    const wrong = await api.post('/users/change-email', {
      email: newEmail,
      ott: '000000' === server.mail.lastCode(newEmail) ? '000001' : '000000',
    });
    assert.equal(wrong.status, 401);
    const changed = await api.post('/users/change-email', { email: newEmail, ott: server.mail.lastCode(newEmail) });
    assert.equal(changed.status, 200);
    assert.equal(changed.text, '');
    assert.equal((await api.get('/users/details/v2')).body.email, newEmail);
    assert.ok(
      server.mail.messages.some((m) => m.to === account.email && /changed/.test(m.subject)),
      'old address told',
    );
    assert.equal(
      (await api.post('/users/ott', { email: account.email, purpose: 'login' })).body.code,
      'USER_NOT_REGISTERED',
    );

    // Taking someone else's address: the code is fine, the address is not.
    await api.post('/users/ott', { email: other.email });
    const taken = await api.post('/users/change-email', { email: other.email, ott: server.mail.lastCode(other.email) });
    assert.equal(taken.status, 403);
  });

  test('details, e-mail MFA (needs SRP to turn off) and public keys', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    api.token = account.token;
    const details = await api.get('/users/details/v2', { query: { memoryCount: 'true' } });
    assert.equal(details.status, 200);
    assert.equal(details.body.email, account.email);
    assert.equal(details.body.fileCount, 0);
    assert.deepEqual(details.body.profileData, {
      canDisableEmailMFA: false,
      isEmailMFAEnabled: false,
      isTwoFactorEnabled: false,
      passkeyCount: 0,
    });
    assert.equal((await api.put('/users/email-mfa', { isEnabled: true })).status, 200);
    assert.equal((await api.get('/users/details/v2')).body.profileData.isEmailMFAEnabled, true);
    const cannot = await api.put('/users/email-mfa', { isEnabled: false });
    assert.equal(cannot.status, 409);
    assert.equal(cannot.body.code, 'CONFLICT');
    assert.equal((await api.put('/users/email-mfa', { isEnabled: 'no' })).status, 400);

    const other = await signUp(api, server.mail, { srp: false });
    const found = await api.get('/users/public-key', { query: { email: other.email }, token: account.token });
    assert.deepEqual(found.body, { publicKey: other.keys.keyAttributes.publicKey });
    const unknown = await api.get('/users/public-key', { query: { email: uniqueEmail() }, token: account.token });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'NOT_FOUND');
  });
});
