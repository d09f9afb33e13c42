// What an SRP session keeps: B (migration 0006), so that verify-session does not compute it again, and not
// the private exponent b, which is derived from the session ID under a server key (docs/data-at-rest.md).
// Sessions stored before either change still verify.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';

import { createSrpClient } from '@ente/crypto';
import type { EmailAuthorizationResponse, SrpCreateSessionResponse } from '@ente/protocol';

import { signUp, type SrpAccount } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

describe('the SRP session keeps B and not b', () => {
  const { server, api } = suiteServer();

  let account: SrpAccount;
  before(async () => {
    account = await signUp(api, server.mail);
  });

  /** create-session by a client that knows the password; the session's row as stored. */
  async function createSession() {
    const client = await createSrpClient(account.srp);
    const { srpUserID } = account.srp;
    const created = await api.post<SrpCreateSessionResponse>(
      '/users/srp/create-session',
      { srpUserID, srpA: client.srpA },
      { token: null },
    );
    assert.equal(created.status, 200, created.text);
    const { sessionID, srpB } = created.body;
    const verify = (srpM1 = client.computeM1B64(srpB)) =>
      api.post<EmailAuthorizationResponse & { srpM2: string }>(
        '/users/srp/verify-session',
        { sessionID, srpUserID, srpM1 },
        { token: null },
      );
    return { client, sessionID, srpB, verify };
  }

  async function storedB(sessionID: string) {
    const rows = (await server.sql(`SELECT srp_b FROM srp_sessions WHERE id = '${sessionID}'`)) as {
      srp_b: string | null;
    }[];
    return rows[0]?.srp_b;
  }

  test('create-session stores the B it answers, and verify-session accepts the proof', async () => {
    const { client, sessionID, srpB, verify } = await createSession();
    assert.equal(await storedB(sessionID), srpB);
    const verified = await verify();
    assert.equal(verified.status, 200, verified.text);
    assert.ok(client.verifyM2(verified.body.srpM2));
  });

  test('verification uses the stored B: another B there makes the right proof fail', async () => {
    const other = await createSession();
    const { sessionID, verify } = await createSession();
    await server.sql(`UPDATE srp_sessions SET srp_b = '${other.srpB}' WHERE id = '${sessionID}'`);
    assert.equal((await verify()).status, 401);
  });

  test('a session stored before B was kept (srp_b NULL) verifies with B computed again', async () => {
    const { client, sessionID, verify } = await createSession();
    await server.sql(`UPDATE srp_sessions SET srp_b = NULL WHERE id = '${sessionID}'`);
    const verified = await verify();
    assert.equal(verified.status, 200, verified.text);
    assert.ok(client.verifyM2(verified.body.srpM2));
  });

  test('b is not stored', async () => {
    const { sessionID } = await createSession();
    assert.deepEqual(await server.sql(`SELECT server_key FROM srp_sessions WHERE id = '${sessionID}'`), [
      { server_key: null },
    ]);
  });

  test('a session stored with its b (before b was derived) verifies with that b, and only with it', async () => {
    const derivedB = (sessionID: string) =>
      createHmac('sha256', server.app.ctx.secrets.srpSessionKey).update(sessionID).digest('base64');
    const kept = await createSession();
    await server.sql(
      `UPDATE srp_sessions SET server_key = '${derivedB(kept.sessionID)}' WHERE id = '${kept.sessionID}'`,
    );
    const verified = await kept.verify();
    assert.equal(verified.status, 200, verified.text);
    assert.ok(kept.client.verifyM2(verified.body.srpM2));

    const other = await createSession();
    const strangerB = randomBytes(32).toString('base64');
    await server.sql(`UPDATE srp_sessions SET server_key = '${strangerB}' WHERE id = '${other.sessionID}'`);
    assert.equal((await other.verify()).status, 401, 'the stored b is the one used');
  });
});
