// SRP over real HTTP (protocol §5): setup/complete at signup, login with create-session and
// verify-session, the §12 vector verifier, the attempt limits, and password change with update.
import { createSrpClient, deriveLoginSubKeyB64, generateSrpSetupAttributes, toB64 } from '@ente/crypto';
import { srpVector } from '@ente/crypto/test-vectors.ts';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openToken, setUpSrp, signUp, srpLogin, srpSession, uniqueEmail, vectorKek } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

describe('SRP', () => {
  const { server, api } = suiteServer();

  test('signup registers a verifier and login returns a sealed token that works', async () => {
    const account = await signUp(api, server.mail);
    const tasksBefore = server.app.ctx.srp.completed;
    const { verified, client } = await srpLogin(api, account.email);
    // B and the proof check ran in the SRP worker threads, not on the event loop.
    assert.equal(server.app.ctx.srp.completed - tasksBefore, 2);
    assert.equal(verified.status, 200, verified.text);
    assert.ok(client.verifyM2(verified.body.srpM2));
    assert.equal(verified.body.id, account.userID);
    assert.deepEqual(
      {
        passkeySessionID: verified.body.passkeySessionID,
        accountsUrl: verified.body.accountsUrl,
        twoFactorSessionID: verified.body.twoFactorSessionID,
        twoFactorSessionIDV2: verified.body.twoFactorSessionIDV2,
      },
      { passkeySessionID: '', accountsUrl: '', twoFactorSessionID: '', twoFactorSessionIDV2: '' },
    );
    assert.equal(verified.body.token, undefined);
    assert.equal(Buffer.from(verified.body.encryptedToken, 'base64').length, 80);
    assert.equal(verified.body.keyAttributes.encryptedKey, account.keys.keyAttributes.encryptedKey);
    const token = await openToken(verified.body.encryptedToken, account.keys);
    assert.match(token, /^[A-Za-z0-9_-]{43}=$/);
    const validity = await api.get('/users/session-validity/v2', { token });
    assert.equal(validity.status, 200);
    assert.equal(validity.body.hasSetKeys, true);
  });

  test('attributes: 404 {} for an unknown e-mail, 404 NOT_FOUND without SRP, the triple of the KEK', async () => {
    const unknown = await api.get('/users/srp/attributes', { query: { email: uniqueEmail() } });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, {});

    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' });
    await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) });
    const noSrp = await api.get('/users/srp/attributes', { query: { email } });
    assert.equal(noSrp.status, 404);
    assert.equal(noSrp.body.code, 'NOT_FOUND');

    const account = await signUp(api, server.mail);
    const found = await api.get('/users/srp/attributes', { query: { email: `  ${account.email.toUpperCase()} ` } });
    assert.equal(found.status, 200);
    assert.deepEqual(found.body.attributes, {
      srpUserID: account.srp.srpUserID,
      srpSalt: account.srp.srpSalt,
      memLimit: vectorKek.memLimit,
      opsLimit: vectorKek.opsLimit,
      kekSalt: vectorKek.salt,
      isEmailMFAEnabled: false,
    });
  });

  test('a verifier registered from the §12 vector logs in with the vector password', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' });
    const signup = await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) });
    const token = signup.body.token;
    const { generateKeyAttributes } = await import('@ente/crypto');
    const keys = await generateKeyAttributes('password', async () => ({ ...vectorKek }));
    assert.equal((await api.put('/users/attributes', { keyAttributes: keys.keyAttributes }, { token })).status, 200);
    const { identity, verifier } = srpVector;
    const setupClient = await createSrpClient(identity);
    const setup = await api.post(
      '/users/srp/setup',
      { srpUserID: identity.srpUserID, srpSalt: identity.srpSalt, srpVerifier: verifier, srpA: setupClient.srpA },
      { token },
    );
    assert.equal(setup.status, 200, setup.text);
    const complete = await api.post(
      '/users/srp/complete',
      { setupID: setup.body.setupID, srpM1: setupClient.computeM1B64(setup.body.srpB) },
      { token },
    );
    assert.equal(complete.status, 200, complete.text);

    const { verified, client: loginClient } = await srpSession(api, identity);
    assert.equal(verified.status, 200, verified.text);
    assert.ok(loginClient.verifyM2(verified.body.srpM2));
    assert.equal(verified.body.id, signup.body.id);
  });

  test('wrong M1: 401 {} up to five times, then 410 TOO_MANY_WRONG_ATTEMPTS even for the right M1', async () => {
    const account = await signUp(api, server.mail);
    const client = await createSrpClient(account.srp);
    const session = await api.post('/users/srp/create-session', {
      srpUserID: account.srp.srpUserID,
      srpA: client.srpA,
    });
    const srpM1 = client.computeM1B64(session.body.srpB);
    const wrong = {
      sessionID: session.body.sessionID,
      srpUserID: account.srp.srpUserID,
      srpM1: toB64(new Uint8Array(32)),
    };
    for (let i = 0; i < 5; i++) {
      const answer = await api.post('/users/srp/verify-session', wrong);
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, {});
    }
    const locked = await api.post('/users/srp/verify-session', { ...wrong, srpM1 });
    assert.equal(locked.status, 410);
    assert.equal(locked.body.code, 'TOO_MANY_WRONG_ATTEMPTS');
  });

  test('a verified session cannot be used again: 410 SESSION_ALREADY_VERIFIED', async () => {
    const account = await signUp(api, server.mail);
    const { verified, sessionID, srpUserID, srpM1 } = await srpLogin(api, account.email);
    assert.equal(verified.status, 200);
    const again = await api.post('/users/srp/verify-session', { sessionID, srpUserID, srpM1 });
    assert.equal(again.status, 410);
    assert.equal(again.body.code, 'SESSION_ALREADY_VERIFIED');
  });

  test('an unknown srpUserID gets a session that looks real and fails with 401', async () => {
    const srpUserID = '11111111-2222-4333-8444-555555555555';
    const client = await createSrpClient({
      srpUserID,
      srpSalt: toB64(new Uint8Array(16)),
      loginSubKey: toB64(new Uint8Array(16)),
    });
    const session = await api.post('/users/srp/create-session', { srpUserID, srpA: client.srpA });
    assert.equal(session.status, 200);
    assert.equal(Buffer.from(session.body.srpB, 'base64').length, 512);
    const verify = await api.post('/users/srp/verify-session', {
      sessionID: session.body.sessionID,
      srpUserID,
      srpM1: client.computeM1B64(session.body.srpB),
    });
    assert.equal(verify.status, 401);
    const unknownSession = await api.post('/users/srp/verify-session', {
      sessionID: '11111111-2222-4333-8444-555555555555',
      srpUserID,
      srpM1: toB64(new Uint8Array(32)),
    });
    assert.equal(unknownSession.status, 401);
  });

  test('A of the wrong length or outside 1..N-1 is 400, M1 of the wrong size is 400', async () => {
    const srpUserID = '11111111-2222-4333-8444-555555555556';
    for (const srpA of [
      toB64(new Uint8Array(511).fill(1)),
      toB64(new Uint8Array(512)),
      toB64(new Uint8Array(512).fill(255)),
    ]) {
      const answer = await api.post('/users/srp/create-session', { srpUserID, srpA });
      assert.equal(answer.status, 400, srpA.slice(0, 10));
      assert.equal(answer.body.code, 'BAD_REQUEST');
    }
    const short = await api.post('/users/srp/verify-session', {
      sessionID: srpUserID,
      srpUserID,
      srpM1: toB64(new Uint8Array(31)),
    });
    assert.equal(short.status, 400);
    assert.match(short.body.message, /srpM1/);
  });

  test('ten unverified sessions per srpUserID per hour, then 429 TOO_MANY_UNVERIFIED_SESSIONS', async () => {
    const account = await signUp(api, server.mail);
    const client = await createSrpClient(account.srp);
    for (let i = 0; i < 9; i++) {
      // signUp's own setup session was verified, so all ten of these are new unverified ones… but one
      // more unverified session exists only if setup was abandoned; count from here.
      assert.equal(
        (await api.post('/users/srp/create-session', { srpUserID: account.srp.srpUserID, srpA: client.srpA })).status,
        200,
      );
    }
    assert.equal(
      (await api.post('/users/srp/create-session', { srpUserID: account.srp.srpUserID, srpA: client.srpA })).status,
      200,
    );
    const limited = await api.post('/users/srp/create-session', {
      srpUserID: account.srp.srpUserID,
      srpA: client.srpA,
    });
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { code: 'TOO_MANY_UNVERIFIED_SESSIONS', message: '' });
    server.clock.advance(61 * 60 * 1_000_000);
    const later = await api.post('/users/srp/create-session', { srpUserID: account.srp.srpUserID, srpA: client.srpA });
    assert.equal(later.status, 200);
  });

  test('complete twice is 400 "SRP setup already complete"', async () => {
    const account = await signUp(api, server.mail);
    const srp = await generateSrpSetupAttributes(account.keys.kek);
    const client = await createSrpClient(srp);
    const setup = await api.post('/users/srp/setup', { ...srp, loginSubKey: undefined, srpA: client.srpA });
    assert.equal(setup.status, 200, setup.text);
    const complete = await api.post('/users/srp/complete', {
      setupID: setup.body.setupID,
      srpM1: client.computeM1B64(setup.body.srpB),
    });
    assert.equal(complete.status, 400);
    assert.deepEqual(complete.body, { code: 'BAD_REQUEST', message: 'SRP setup already complete' });
  });

  test('password change with srp/update logs out other devices unless told not to', async () => {
    const account = await signUp(api, server.mail);
    const other = (await srpLogin(api, account.email)).verified;
    const otherToken = await openToken(other.body.encryptedToken, account.keys);
    assert.equal((await api.get('/users/session-validity/v2', { token: otherToken })).status, 200);

    // The new KEK would come from Argon2id of the new password; any 32 bytes do for the server.
    const newKek = toB64(new Uint8Array(32).fill(7));
    const { encryptBoxB64 } = await import('@ente/crypto');
    const rewrapped = await encryptBoxB64(account.keys.masterKey, newKek);
    const srp = await generateSrpSetupAttributes(newKek);
    const client = await createSrpClient(srp);
    const setup = await api.post('/users/srp/setup', {
      srpUserID: srp.srpUserID,
      srpSalt: srp.srpSalt,
      srpVerifier: srp.srpVerifier,
      srpA: client.srpA,
    });
    const badStrength = await api.post('/users/srp/update', {
      setupID: setup.body.setupID,
      srpM1: client.computeM1B64(setup.body.srpB),
      updatedKeyAttr: {
        kekSalt: toB64(new Uint8Array(16).fill(1)),
        encryptedKey: rewrapped.encryptedData,
        keyDecryptionNonce: rewrapped.nonce,
        opsLimit: 2,
        memLimit: 67108864,
      },
    });
    assert.equal(badStrength.status, 400);
    assert.equal(badStrength.body.message, 'Unexpected KDF strength');
    const update = await api.post('/users/srp/update', {
      setupID: setup.body.setupID,
      srpM1: client.computeM1B64(setup.body.srpB),
      updatedKeyAttr: {
        kekSalt: toB64(new Uint8Array(16).fill(1)),
        encryptedKey: rewrapped.encryptedData,
        keyDecryptionNonce: rewrapped.nonce,
        opsLimit: 32,
        memLimit: 134217728,
      },
    });
    assert.equal(update.status, 200, update.text);
    assert.ok(client.verifyM2(update.body.srpM2));
    assert.equal((await api.get('/users/session-validity/v2', { token: otherToken })).status, 401);
    const mine = await api.get('/users/session-validity/v2');
    assert.equal(mine.status, 200);
    assert.equal(mine.body.keyAttributes.kekSalt, toB64(new Uint8Array(16).fill(1)));
    assert.equal(mine.body.keyAttributes.opsLimit, 32);

    const attributes = await api.get('/users/srp/attributes', { query: { email: account.email } });
    assert.equal(attributes.body.attributes.srpUserID, srp.srpUserID);
    // The old password no longer logs in; the new one does.
    const loginSubKey = await deriveLoginSubKeyB64(newKek);
    const { verified } = await srpSession(api, { srpUserID: srp.srpUserID, srpSalt: srp.srpSalt, loginSubKey });
    assert.equal(verified.status, 200);

    // logOutOtherDevices: false keeps the other token.
    const third = await openToken(verified.body.encryptedToken, account.keys);
    const again = await generateSrpSetupAttributes(newKek);
    const againClient = await createSrpClient(again);
    const setup2 = await api.post('/users/srp/setup', { ...again, loginSubKey: undefined, srpA: againClient.srpA });
    const update2 = await api.post('/users/srp/update', {
      setupID: setup2.body.setupID,
      srpM1: againClient.computeM1B64(setup2.body.srpB),
      updatedKeyAttr: {
        kekSalt: toB64(new Uint8Array(16).fill(1)),
        encryptedKey: rewrapped.encryptedData,
        keyDecryptionNonce: rewrapped.nonce,
        opsLimit: 32,
        memLimit: 134217728,
      },
      logOutOtherDevices: false,
    });
    assert.equal(update2.status, 200, update2.text);
    assert.equal((await api.get('/users/session-validity/v2', { token: third })).status, 200);
    await setUpSrp; // (keeps the import used when the file is trimmed)
  });

  test('e-mail MFA blocks SRP login with 409 EMAIL_MFA_ENABLED and shows in the attributes', async () => {
    const account = await signUp(api, server.mail);
    assert.equal((await api.put('/users/email-mfa', { isEnabled: true })).status, 200);
    const attributes = await api.get('/users/srp/attributes', { query: { email: account.email } });
    assert.equal(attributes.body.attributes.isEmailMFAEnabled, true);
    const client = await createSrpClient(account.srp);
    const blocked = await api.post('/users/srp/create-session', {
      srpUserID: account.srp.srpUserID,
      srpA: client.srpA,
    });
    assert.equal(blocked.status, 409);
    assert.equal(blocked.body.code, 'EMAIL_MFA_ENABLED');
    assert.equal((await api.put('/users/email-mfa', { isEnabled: false })).status, 200);
  });
});
