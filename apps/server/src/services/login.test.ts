// The password login without HTTP: a real SRP exchange against the services, what the answer holds for each
// kind of account, and how many statements it costs (a login is the server's busiest write path; on the
// embedded PGlite every statement is CPU of the server's own process).
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';

import type { KyselyPlugin } from 'kysely';

import { computeSrpVerifierB64, createSrpClient } from '@ente/crypto';

import { insertSrpAuth } from '../db/srp.ts';
import type { RequestClient } from '../http/client-app.ts';
import { insertUserWithKeyAttributes, suiteContext } from '../testing/context.ts';
import type { Context } from './context.ts';
import { createSrpLoginSession, verifySrpLoginSession } from './srp.ts';

/** What verification success reads of the request: the client's address and user agent. */
const loginClient: RequestClient = { ip: '192.0.2.7', userAgent: 'service test' };

describe('password login services', () => {
  const testContext = suiteContext();

  test('a login reads the account once: two statements to start it, three to finish it', async () => {
    const { ctx, mail } = testContext();
    const { identity } = await userWithPassword(ctx, 'login@example.org');
    const counted = countingStatements(ctx);

    const client = await createSrpClient(identity);
    const session = await createSrpLoginSession(counted.ctx, '192.0.2.7', {
      srpUserID: identity.srpUserID,
      srpA: client.srpA,
    });
    assert.equal(counted.take(), 2, 'the account with its unverified sessions, then the new session');

    const answer = await verifySrpLoginSession(
      counted.ctx,
      { sessionID: session.sessionID, srpUserID: identity.srpUserID, srpM1: client.computeM1B64(session.srpB) },
      'auth',
      loginClient,
    );
    assert.equal(counted.take(), 3, 'the attempt with the account, the session verified, the token');
    assert.ok(client.verifyM2(answer.srpM2));
    assert.ok(answer.encryptedToken);
    assert.equal(answer.keyAttributes?.memLimit, 268_435_456);
    assert.equal(mail.messages.at(-1)?.subject, 'New login to your account');
  });

  test('an account with a live passkey gets a passkey session, not a token', async () => {
    const context = testContext();
    const { userID, identity } = await userWithPassword(context.ctx, 'passkey@example.org');
    await context.sql(
      `INSERT INTO passkeys (id, user_id, friendly_name, created_at) VALUES ('${randomUUID()}', ${userID}, 'key', 1)`,
    );
    const answer = await login(context.ctx, identity);
    assert.ok(answer.passkeySessionID);
    assert.equal(answer.encryptedToken, undefined);
  });

  test('a deleted passkey no longer counts, and two-factor asks for its code', async () => {
    const context = testContext();
    const { userID, identity } = await userWithPassword(context.ctx, 'deleted-passkey@example.org');
    await context.sql(
      `INSERT INTO passkeys (id, user_id, friendly_name, created_at, deleted_at) VALUES ('${randomUUID()}', ${userID}, 'key', 1, 2)`,
    );
    await context.sql(`UPDATE users SET is_two_factor_enabled = true WHERE user_id = ${userID}`);
    const answer = await login(context.ctx, identity);
    assert.equal(answer.passkeySessionID, '');
    assert.ok(answer.twoFactorSessionID);
    assert.equal(answer.encryptedToken, undefined);
  });
});

async function userWithPassword(ctx: Context, email: string) {
  const userID = await insertUserWithKeyAttributes(ctx, email);
  const identity = {
    srpUserID: randomUUID(),
    srpSalt: randomBytes(16).toString('base64'),
    loginSubKey: randomBytes(16).toString('base64'),
  };
  const values = { srp_user_id: identity.srpUserID, salt: identity.srpSalt, verifier: computeSrpVerifierB64(identity) };
  await insertSrpAuth(ctx.db, userID, values, ctx.clock.nowMicros());
  return { userID, identity };
}

async function login(ctx: Context, identity: { srpUserID: string; srpSalt: string; loginSubKey: string }) {
  const client = await createSrpClient(identity);
  const session = await createSrpLoginSession(ctx, '192.0.2.8', { srpUserID: identity.srpUserID, srpA: client.srpA });
  const srpM1 = client.computeM1B64(session.srpB);
  return verifySrpLoginSession(
    ctx,
    { sessionID: session.sessionID, srpUserID: identity.srpUserID, srpM1 },
    'auth',
    loginClient,
  );
}

/** The context with a database that counts the statements it runs; `take()` answers the count and restarts it. */
function countingStatements(ctx: Context) {
  let statements = 0;
  const counter: KyselyPlugin = {
    transformQuery(args) {
      statements++;
      return args.node;
    },
    transformResult(args) {
      return Promise.resolve(args.result);
    },
  };
  return {
    ctx: { ...ctx, db: ctx.db.withPlugin(counter) },
    take() {
      const count = statements;
      statements = 0;
      return count;
    },
  };
}
