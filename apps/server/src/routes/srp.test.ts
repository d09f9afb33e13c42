// SRP over real HTTP (docs/protocol.md#srp): setup/complete at signup, login with create-session and
// verify-session, the test-vector verifier (docs/protocol.md#test-vectors), the attempt limits
// (docs/protocol.md#second-factor-and-srp-limits), and password change with update.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';

import {
  createSrpClient,
  deriveLoginSubKeyB64,
  encryptBoxB64,
  generateKeyAttributes,
  generateSrpSetupAttributes,
  toB64,
  type SrpClientSession,
} from '@ente/crypto';
import { srpVector } from '@ente/crypto/testing/vectors.ts';
import type {
  EmailAuthorizationResponse,
  SessionValidityResponse,
  SrpAttributesResponse,
  SrpCompleteResponse,
  SrpCreateSessionResponse,
  SrpSetupResponse,
} from '@ente/protocol';

import { standInEmailMfa } from '../services/stand-in-attributes.ts';
import type { ApiResponse } from '../testing/client.ts';
import {
  emailLoginToken,
  openToken,
  signUp,
  srpLogin,
  srpSession,
  startSignUp,
  uniqueEmail,
  vectorKek,
  type SrpAccount,
} from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const HOUR = 60 * 60 * 1_000_000;
const wrongM1 = toB64(new Uint8Array(32));

describe('SRP', () => {
  const { server, api } = suiteServer();

  /** An account with SRP, for the tests that only log in or read with it. */
  let shared: SrpAccount;
  before(async () => {
    shared = await signUp(api, server.mail);
  });

  /** create-session for the account, by a client that knows its password. */
  async function createSession(account: SrpAccount) {
    const client = await createSrpClient(account.srp);
    const session = await api.post<SrpCreateSessionResponse>('/users/srp/create-session', {
      srpUserID: account.srp.srpUserID,
      srpA: client.srpA,
    });
    return { client, session };
  }

  /** A login session of the account and the right M1 for it. */
  async function loginSession(account: SrpAccount) {
    const { client, session } = await createSession(account);
    assert.equal(session.status, 200, session.text);
    return { sessionID: session.body.sessionID, srpM1: client.computeM1B64(session.body.srpB) };
  }

  describe('login', () => {
    let tasks: number;
    let verified: ApiResponse<EmailAuthorizationResponse>;
    let client: SrpClientSession;
    before(async () => {
      const tasksBefore = server.app.ctx.srp.completed;
      ({ verified, client } = await srpLogin(api, shared.email));
      tasks = server.app.ctx.srp.completed - tasksBefore;
    });

    test('B and the proof check run in the SRP worker threads, not on the event loop', () => {
      assert.equal(tasks, 2);
    });

    test('verify-session answers an M2 that proves the server knows the verifier', () => {
      assert.equal(verified.status, 200, verified.text);
      assert.ok(client.verifyM2(verified.body.srpM2 ?? ''));
    });

    test('the answer carries the user ID and key attributes, empty session strings and no plain token', () => {
      assert.equal(verified.body.id, shared.userID);
      assert.equal(verified.body.keyAttributes?.encryptedKey, shared.keys.keyAttributes.encryptedKey);
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
    });

    test('the sealed token (80 bytes) opens to a token that works', async () => {
      assert.equal(Buffer.from(verified.body.encryptedToken ?? '', 'base64').length, 80);
      const token = await openToken(verified.body.encryptedToken, shared.keys);
      assert.match(token, /^[A-Za-z0-9_-]{43}=$/);
      const validity = await api.get<SessionValidityResponse>('/users/session-validity/v2', { token });
      assert.equal(validity.status, 200);
      assert.equal(validity.body.hasSetKeys, true);
    });
  });

  describe('attributes', () => {
    /** What an answer shows of itself: each key with its type, and the length of each string and its bytes. */
    function shapeOf(attributes: SrpAttributesResponse['attributes']) {
      return Object.entries(attributes).map(([key, value]) => [
        key,
        typeof value,
        typeof value === 'string' ? [value.length, key === 'srpUserID' ? 16 : Buffer.from(value, 'base64').length] : 0,
      ]);
    }
    const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const realKdf = ['268435456x16', '134217728x32', '1073741824x4'];

    test("an unknown address gets attributes shaped like a real account's, the same each time", async () => {
      const known = await api.get<SrpAttributesResponse>('/users/srp/attributes', {
        query: { email: shared.email },
        token: null,
      });
      const email = uniqueEmail();
      const unknown = await api.get<SrpAttributesResponse>('/users/srp/attributes', { query: { email }, token: null });
      assert.equal(unknown.status, 200);
      assert.equal(known.status, 200);
      assert.deepEqual(Object.keys(unknown.body), ['attributes']);
      assert.deepEqual(shapeOf(unknown.body.attributes), shapeOf(known.body.attributes));
      const { srpUserID, memLimit, opsLimit } = unknown.body.attributes;
      assert.match(srpUserID, uuidV4);
      assert.match(known.body.attributes.srpUserID, uuidV4);
      assert.ok(realKdf.includes(`${memLimit}x${opsLimit}`), `${memLimit}x${opsLimit}`);
      assert.deepEqual(unknown.headers.get('content-type'), known.headers.get('content-type'));
      // Stable for the address, as the server normalises it.
      const again = await api.get<SrpAttributesResponse>('/users/srp/attributes', {
        query: { email: ` ${email.toUpperCase()}` },
        token: null,
      });
      assert.equal(again.text, unknown.text);
    });

    test('stand-in attributes differ between addresses', async () => {
      const answers = [];
      for (let i = 0; i < 12; i++) {
        const answer = await api.get<SrpAttributesResponse>('/users/srp/attributes', {
          query: { email: uniqueEmail() },
          token: null,
        });
        answers.push(answer.body.attributes);
      }
      for (const key of ['srpUserID', 'srpSalt', 'kekSalt'] as const) {
        assert.equal(new Set(answers.map((attributes) => attributes[key])).size, answers.length, key);
      }
    });

    test('an SRP login against stand-in attributes fails exactly as a wrong password does', async () => {
      // An address whose stand-in does not say e-mail MFA (four in five), which a client would log in to.
      let standIn: SrpAttributesResponse['attributes'] | undefined;
      for (let i = 0; i < 100 && (!standIn || standIn.isEmailMFAEnabled); i++) {
        const answer = await api.get<SrpAttributesResponse>('/users/srp/attributes', {
          query: { email: uniqueEmail() },
          token: null,
        });
        standIn = answer.body.attributes;
      }
      assert.ok(standIn && !standIn.isEmailMFAEnabled);
      const { srpUserID, srpSalt } = standIn;
      const loginSubKey = toB64(new Uint8Array(16).fill(7));
      const { verified: unknown } = await srpSession(api, { srpUserID, srpSalt, loginSubKey });
      const { verified: wrongPassword } = await srpSession(api, {
        srpUserID: shared.srp.srpUserID,
        srpSalt: shared.srp.srpSalt,
        loginSubKey,
      });
      assert.equal(wrongPassword.status, 401);
      assert.equal(unknown.status, wrongPassword.status);
      assert.equal(unknown.text, wrongPassword.text);
      const stored = await server.sql(`SELECT is_fake FROM srp_sessions WHERE srp_user_id = '${srpUserID}'`);
      assert.deepEqual(stored, [{ is_fake: true }], 'create-session took the stand-in path');
    });

    test('an account without SRP gets stand-in attributes that send its clients to the e-mail code', async () => {
      const { email } = await startSignUp(api, server.mail);
      const noSrp = await api.get<SrpAttributesResponse>('/users/srp/attributes', { query: { email }, token: null });
      assert.equal(noSrp.status, 200);
      const known = await api.get<SrpAttributesResponse>('/users/srp/attributes', {
        query: { email: shared.email },
        token: null,
      });
      assert.deepEqual(shapeOf(noSrp.body.attributes), shapeOf(known.body.attributes));
      assert.equal(noSrp.body.attributes.isEmailMFAEnabled, true);
      const client = await createSrpClient({ ...noSrp.body.attributes, loginSubKey: toB64(new Uint8Array(16)) });
      const session = await api.post('/users/srp/create-session', {
        srpUserID: noSrp.body.attributes.srpUserID,
        srpA: client.srpA,
      });
      assert.equal(session.status, 409, 'create-session agrees with the attributes');
      assert.equal(session.body.code, 'EMAIL_MFA_ENABLED');
    });

    test('create-session answers a stand-in with e-mail MFA as it answers an account with e-mail MFA', async () => {
      let standIn: SrpAttributesResponse['attributes'] | undefined;
      for (let i = 0; i < 100 && !standIn?.isEmailMFAEnabled; i++) {
        const answer = await api.get<SrpAttributesResponse>('/users/srp/attributes', {
          query: { email: uniqueEmail() },
          token: null,
        });
        standIn = answer.body.attributes;
      }
      assert.ok(standIn?.isEmailMFAEnabled, 'about one address in five has the flag');
      const client = await createSrpClient({ ...standIn, loginSubKey: toB64(new Uint8Array(16)) });
      const session = await api.post('/users/srp/create-session', { srpUserID: standIn.srpUserID, srpA: client.srpA });
      assert.equal(session.status, 409);
      assert.deepEqual(session.body, { code: 'EMAIL_MFA_ENABLED', message: 'e-mail MFA is enabled' });
    });

    test('they are the SRP identity and the KEK parameters, found by the normalised e-mail', async () => {
      const found = await api.get<SrpAttributesResponse>('/users/srp/attributes', {
        query: { email: `  ${shared.email.toUpperCase()} ` },
      });
      assert.equal(found.status, 200);
      assert.deepEqual(found.body.attributes, {
        srpUserID: shared.srp.srpUserID,
        srpSalt: shared.srp.srpSalt,
        memLimit: vectorKek.memLimit,
        opsLimit: vectorKek.opsLimit,
        kekSalt: vectorKek.salt,
        isEmailMFAEnabled: false,
      });
    });
  });

  test('a verifier registered from the test vector logs in with the vector password', async () => {
    const { token, userID } = await startSignUp(api, server.mail);
    const keys = await generateKeyAttributes('password', () => Promise.resolve({ ...vectorKek }));
    assert.equal((await api.put('/users/attributes', { keyAttributes: keys.keyAttributes }, { token })).status, 200);
    const { identity, verifier } = srpVector;
    const setupClient = await createSrpClient(identity);
    const setup = await api.post<SrpSetupResponse>(
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

    const { verified, client } = await srpSession(api, identity);
    assert.equal(verified.status, 200, verified.text);
    assert.ok(client.verifyM2(verified.body.srpM2 ?? ''));
    assert.equal(verified.body.id, userID);
  });

  describe('attempts', () => {
    const verify = (body: object) => api.post('/users/srp/verify-session', body);

    test('wrong M1: 401 {} up to five times, then 410 TOO_MANY_WRONG_ATTEMPTS even for the right M1', async () => {
      const { sessionID, srpM1 } = await loginSession(shared);
      const { srpUserID } = shared.srp;
      for (let i = 0; i < 5; i++) {
        const answer = await verify({ sessionID, srpUserID, srpM1: wrongM1 });
        assert.equal(answer.status, 401, `try ${i}`);
        assert.deepEqual(answer.body, {});
      }
      const locked = await verify({ sessionID, srpUserID, srpM1 });
      assert.equal(locked.status, 410);
      assert.equal(locked.body.code, 'TOO_MANY_WRONG_ATTEMPTS');
    });

    test('a verified session cannot be used again: 410 SESSION_ALREADY_VERIFIED', async () => {
      const { verified, sessionID, srpUserID, srpM1 } = await srpLogin(api, shared.email);
      assert.equal(verified.status, 200);
      const again = await verify({ sessionID, srpUserID, srpM1 });
      assert.equal(again.status, 410);
      assert.equal(again.body.code, 'SESSION_ALREADY_VERIFIED');
    });

    test('an unknown session ID is 401', async () => {
      const unknown = await verify({ sessionID: randomUUID(), srpUserID: shared.srp.srpUserID, srpM1: wrongM1 });
      assert.equal(unknown.status, 401);
    });
  });

  describe('an unknown srpUserID', () => {
    let srpUserID = '';
    before(() => {
      // One whose stand-in flag is not e-mail MFA (that one is answered 409 like an account with it).
      do srpUserID = randomUUID();
      while (standInEmailMfa(server.app.ctx.secrets.standInKey, srpUserID));
    });
    /** create-session for the unknown srpUserID, as a client that believes it exists. */
    async function unknownUserSession() {
      const client = await createSrpClient({
        srpUserID,
        srpSalt: toB64(new Uint8Array(16)),
        loginSubKey: toB64(new Uint8Array(16)),
      });
      const session = await api.post<SrpCreateSessionResponse>('/users/srp/create-session', {
        srpUserID,
        srpA: client.srpA,
      });
      return { client, session };
    }

    test('gets a session that looks real (a 512-byte B)', async () => {
      const { session } = await unknownUserSession();
      assert.equal(session.status, 200);
      assert.equal(Buffer.from(session.body.srpB, 'base64').length, 512);
    });

    test('fails verification with 401', async () => {
      const { client, session } = await unknownUserSession();
      const verify = await api.post('/users/srp/verify-session', {
        sessionID: session.body.sessionID,
        srpUserID,
        srpM1: client.computeM1B64(session.body.srpB),
      });
      assert.equal(verify.status, 401);
    });
  });

  describe('malformed SRP values', () => {
    const srpUserID = '11111111-2222-4333-8444-555555555556';

    test('an A of the wrong length is 400', async () => {
      const answer = await api.post('/users/srp/create-session', { srpUserID, srpA: toB64(new Uint8Array(511)) });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'BAD_REQUEST');
    });

    test('an A outside 1..N-1 is 400', async () => {
      for (const srpA of [toB64(new Uint8Array(512)), toB64(new Uint8Array(512).fill(255))]) {
        const answer = await api.post('/users/srp/create-session', { srpUserID, srpA });
        assert.equal(answer.status, 400, srpA.slice(0, 10));
        assert.equal(answer.body.code, 'BAD_REQUEST');
      }
    });

    test('an M1 of the wrong size is 400 naming srpM1', async () => {
      const short = await api.post('/users/srp/verify-session', {
        sessionID: srpUserID,
        srpUserID,
        srpM1: toB64(new Uint8Array(31)),
      });
      assert.equal(short.status, 400);
      assert.match(short.body.message ?? '', /srpM1/);
    });
  });

  describe('unverified sessions', () => {
    /** Stores `count` unverified sessions for `srpUserID` now, as abandoned logins from `ip` leave them. */
    async function abandonedSessions(srpUserID: string, count: number, ip = '127.0.0.1') {
      const now = server.clock.nowMicros();
      for (let i = 0; i < count; i++) {
        await server.sql(
          `INSERT INTO srp_sessions (id, srp_user_id, server_key, srp_a, created_at, ip)
           VALUES ('${randomUUID()}', '${srpUserID}', 'k', 'a', ${now}, '${ip}')`,
        );
      }
    }

    test('ten per srpUserID and client address an hour; the eleventh is 429 TOO_MANY_UNVERIFIED_SESSIONS', async () => {
      const account = await signUp(api, server.mail);
      const client = await createSrpClient(account.srp);
      const create = () =>
        api.post('/users/srp/create-session', { srpUserID: account.srp.srpUserID, srpA: client.srpA });
      // signUp's own setup session was verified, so these ten are the only unverified ones.
      for (let i = 0; i < 10; i++) assert.equal((await create()).status, 200, `session ${i}`);
      const limited = await create();
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.body, { code: 'TOO_MANY_UNVERIFIED_SESSIONS', message: '' });
    });

    test("a stranger's abandoned sessions from another address leave the person's password sign-in open", async () => {
      const account = await signUp(api, server.mail);
      await abandonedSessions(account.srp.srpUserID, 50, '203.0.113.9');
      const { verified } = await srpLogin(api, account.email);
      assert.equal(verified.status, 200, verified.text);
    });

    test('an hour later they no longer count', async () => {
      // An unknown srpUserID whose stand-in flag is not e-mail MFA (that one is answered 409 before any count).
      let srpUserID: string;
      do srpUserID = randomUUID();
      while (standInEmailMfa(server.app.ctx.secrets.standInKey, srpUserID));
      const client = await createSrpClient({ srpUserID, srpSalt: toB64(new Uint8Array(16)), loginSubKey: wrongM1 });
      const create = () => api.post('/users/srp/create-session', { srpUserID, srpA: client.srpA });
      await abandonedSessions(srpUserID, 10);
      assert.equal((await create()).status, 429);
      server.clock.advance(HOUR + 1);
      assert.equal((await create()).status, 200);
    });
  });

  test('complete after SRP is set up is 400 "SRP setup already complete"', async () => {
    api.token = shared.token;
    const srp = await generateSrpSetupAttributes(shared.keys.kek);
    const client = await createSrpClient(srp);
    const setup = await api.post<SrpSetupResponse>('/users/srp/setup', {
      ...srp,
      loginSubKey: undefined,
      srpA: client.srpA,
    });
    assert.equal(setup.status, 200, setup.text);
    const complete = await api.post('/users/srp/complete', {
      setupID: setup.body.setupID,
      srpM1: client.computeM1B64(setup.body.srpB),
    });
    assert.equal(complete.status, 400);
    assert.deepEqual(complete.body, { code: 'BAD_REQUEST', message: 'SRP setup already complete' });
  });

  describe('password change (srp/update)', () => {
    /** One account for these tests: each changes its password again, and the caller stays logged in. */
    let account: SrpAccount;
    before(async () => {
      account = await signUp(api, server.mail);
    });

    // The new KEK would come from Argon2id of the new password; any 32 bytes do for the server.
    const newKek = toB64(new Uint8Array(32).fill(7));
    const newKekSalt = toB64(new Uint8Array(16).fill(1));

    /** SRP setup for the new KEK, then srp/update with the key re-wrapped under it. */
    async function changePassword(options: { logOutOtherDevices?: boolean; opsLimit?: number; memLimit?: number }) {
      api.token = account.token;
      const rewrapped = await encryptBoxB64(account.keys.masterKey, newKek);
      const srp = await generateSrpSetupAttributes(newKek);
      const client = await createSrpClient(srp);
      const setup = await api.post<SrpSetupResponse>('/users/srp/setup', {
        srpUserID: srp.srpUserID,
        srpSalt: srp.srpSalt,
        srpVerifier: srp.srpVerifier,
        srpA: client.srpA,
      });
      assert.equal(setup.status, 200, setup.text);
      const update = await api.post<SrpCompleteResponse>('/users/srp/update', {
        setupID: setup.body.setupID,
        srpM1: client.computeM1B64(setup.body.srpB),
        updatedKeyAttr: {
          kekSalt: newKekSalt,
          encryptedKey: rewrapped.encryptedData,
          keyDecryptionNonce: rewrapped.nonce,
          opsLimit: options.opsLimit ?? 32,
          memLimit: options.memLimit ?? 134217728,
        },
        logOutOtherDevices: options.logOutOtherDevices,
      });
      return { update, client, srp };
    }

    test('a weak KDF is 400 "Unexpected KDF strength"', async () => {
      const { update } = await changePassword({ opsLimit: 2, memLimit: 67108864 });
      assert.equal(update.status, 400);
      assert.equal(update.body.message, 'Unexpected KDF strength');
    });

    test('it answers an M2 the client verifies and stores the new key attributes', async () => {
      const { update, client } = await changePassword({});
      assert.equal(update.status, 200, update.text);
      assert.ok(client.verifyM2(update.body.srpM2));
      const mine = await api.get<SessionValidityResponse>('/users/session-validity/v2');
      assert.equal(mine.status, 200, 'the caller stays logged in');
      assert.equal(mine.body.keyAttributes?.kekSalt, newKekSalt);
      assert.equal(mine.body.keyAttributes.opsLimit, 32);
    });

    test('afterwards the new password logs in', async () => {
      const { srp } = await changePassword({});
      const attributes = await api.get<SrpAttributesResponse>('/users/srp/attributes', {
        query: { email: account.email },
      });
      assert.equal(attributes.body.attributes.srpUserID, srp.srpUserID);
      const loginSubKey = await deriveLoginSubKeyB64(newKek);
      const { verified } = await srpSession(api, { srpUserID: srp.srpUserID, srpSalt: srp.srpSalt, loginSubKey });
      assert.equal(verified.status, 200);
    });

    test('it logs out the other devices', async () => {
      const other = await emailLoginToken(api, server.mail, account);
      await changePassword({});
      assert.equal((await api.get('/users/session-validity/v2', { token: other })).status, 401);
    });

    test('with logOutOtherDevices false the other devices stay logged in', async () => {
      const other = await emailLoginToken(api, server.mail, account);
      const { update } = await changePassword({ logOutOtherDevices: false });
      assert.equal(update.status, 200, update.text);
      assert.equal((await api.get('/users/session-validity/v2', { token: other })).status, 200);
    });
  });

  describe('with e-mail MFA on', () => {
    let account: SrpAccount;
    before(async () => {
      account = await signUp(api, server.mail);
      assert.equal((await api.put('/users/email-mfa', { isEnabled: true })).status, 200);
    });

    test('create-session is 409 EMAIL_MFA_ENABLED', async () => {
      const { session: blocked } = await createSession(account);
      assert.equal(blocked.status, 409);
      assert.equal(blocked.body.code, 'EMAIL_MFA_ENABLED');
    });

    test('the SRP attributes say so', async () => {
      const attributes = await api.get<SrpAttributesResponse>('/users/srp/attributes', {
        query: { email: account.email },
      });
      assert.equal(attributes.body.attributes.isEmailMFAEnabled, true);
    });
  });

  test('with SRP set up, e-mail MFA can be turned off again and SRP login works', async () => {
    const account = await signUp(api, server.mail);
    assert.equal((await api.put('/users/email-mfa', { isEnabled: true })).status, 200);
    assert.equal((await api.put('/users/email-mfa', { isEnabled: false })).status, 200);
    assert.equal((await createSession(account)).session.status, 200);
  });
});
