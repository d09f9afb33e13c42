// The SRP rules without HTTP: a verifier is registered once its setup's proof checks out, once per user,
// under an srpUserID nobody else holds; a login session for an unknown srpUserID looks like any other;
// unverified login sessions are limited per srpUserID and client address, so a stranger's cannot block
// the person's own.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { createSrpClient, generateSrpSetupAttributes } from '@ente/crypto';
import { limits } from '@ente/protocol';

import { HttpError } from '../http/errors.ts';
import { insertUserWithKeyAttributes, suiteContext } from '../testing/context.ts';
import { vectorKek } from '../testing/flows.ts';
import type { Context } from './context.ts';
import { beginSrpSetup, completeSrpSetup, createSrpLoginSession, srpAttributesOf } from './srp.ts';
import { standInEmailMfa } from './stand-in-attributes.ts';

const refusedWith = (status: number, code?: string) => (error: unknown) =>
  error instanceof HttpError && error.status === status && (code === undefined || error.body.code === code);

describe('SRP services', () => {
  const testContext = suiteContext();
  let users = 0;

  /** Registers a verifier for a new user through setup and complete; the user and its SRP attributes. */
  async function userWithPassword(ctx: Context) {
    const email = `srp-${++users}@example.org`;
    const userID = await insertUserWithKeyAttributes(ctx, email);
    const srp = await generateSrpSetupAttributes(vectorKek.key);
    const client = await createSrpClient(srp);
    const setup = await beginSrpSetup(ctx, userID, '192.0.2.1', { ...srp, srpA: client.srpA });
    const srpM1 = client.computeM1B64(setup.srpB);
    const srpM2 = await completeSrpSetup(ctx, userID, { setupID: setup.setupID, srpM1 });
    assert.ok(client.verifyM2(srpM2), 'the server proves it knows the verifier');
    return { userID, email, srp, setupID: setup.setupID, srpM1 };
  }

  test('a verifier is registered once; its srpUserID is no one else’s', async () => {
    const { ctx } = testContext();
    const { userID, email, srp, setupID, srpM1 } = await userWithPassword(ctx);
    const attributes = await srpAttributesOf(ctx, email);
    assert.deepEqual([attributes.srpUserID, attributes.srpSalt], [srp.srpUserID, srp.srpSalt]);
    await assert.rejects(completeSrpSetup(ctx, userID, { setupID, srpM1 }), refusedWith(400, 'BAD_REQUEST'));
    const other = await insertUserWithKeyAttributes(ctx, `srp-other-${users}@example.org`);
    const client = await createSrpClient(srp);
    await assert.rejects(
      beginSrpSetup(ctx, other, '192.0.2.1', { ...srp, srpA: client.srpA }),
      (error: unknown) => refusedWith(400)(error) && /already in use/.test((error as HttpError).body.message ?? ''),
    );
  });

  test('unverified login sessions are limited per srpUserID and client address', async () => {
    const { ctx } = testContext();
    const { srp } = await userWithPassword(ctx);
    const { srpA } = await createSrpClient(srp);
    const request = { srpUserID: srp.srpUserID, srpA };
    for (let i = 0; i < limits.maxUnverifiedSrpSessionsPerHour; i++) {
      await createSrpLoginSession(ctx, '198.51.100.7', request);
    }
    await assert.rejects(
      createSrpLoginSession(ctx, '198.51.100.7', request),
      refusedWith(429, 'TOO_MANY_UNVERIFIED_SESSIONS'),
    );
    // The person, from their own address, still gets a session.
    const own = await createSrpLoginSession(ctx, '203.0.113.9', request);
    assert.equal(Buffer.from(own.srpB, 'base64').length, 512);
  });

  test('an unknown srpUserID gets a session shaped like a real one', async () => {
    const { ctx } = testContext();
    const { srpA } = await createSrpClient({ srpUserID: 'unknown', srpSalt: 'AAAA' });
    // One stand-in in five says e-mail MFA (409, as such an account answers): pick one that does not.
    const srpUserID = Array.from(
      { length: 50 },
      (_, i) => `0b0e8e7e-7a2d-4f4b-9d7e-${String(i).padStart(12, '0')}`,
    ).find((candidate) => !standInEmailMfa(ctx.secrets.standInKey, candidate));
    const unknown = await createSrpLoginSession(ctx, '192.0.2.2', { srpUserID: srpUserID ?? '', srpA });
    assert.match(unknown.sessionID, /^[0-9a-f-]{36}$/);
    assert.equal(Buffer.from(unknown.srpB, 'base64').length, 512);
  });
});
