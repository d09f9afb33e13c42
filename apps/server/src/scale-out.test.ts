// Scale-out: two server processes on one PostgreSQL behave as one server. Tokens issued by one work on
// the other, a logout on one is seen by the other, rate limits count requests made to both, and both
// run the migrations at once without tripping over each other.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  deriveLoginSubKeyB64,
  encryptBoxB64,
  generateKeyAttributes,
  generateKeyB64,
  toB64,
  type GeneratedKeys,
} from '@ente/crypto';
import type { EmailAuthorizationResponse, Entity, EntityDiffResponse, SessionValidityResponse } from '@ente/protocol';

import { ApiClient } from './testing/client.ts';
import { openToken, setUpSrp, srpSession, vectorKek } from './testing/flows.ts';
import { spawnServer, testPostgres, type ServerProcess } from './testing/process.ts';
import { createScratchDatabase } from './testing/server.ts';

const email = 'scale@example.org';
const maxEntities = 12;
const ott = '123456';

/**
 * Retries `check` until it passes or two seconds went by: the other process learns of a write through
 * PostgreSQL NOTIFY, within milliseconds but not at once, and nothing here can wait for that event.
 */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 2000;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('two processes on one PostgreSQL', () => {
  let postgres: { url: string; stop(): Promise<void> } | undefined;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;
  let a: ApiClient;
  let b: ApiClient;
  let keys: GeneratedKeys;

  /** A token of the account from an e-mail code login through `api`. */
  async function loginToken(api: ApiClient): Promise<string> {
    await api.post('/users/ott', { email });
    const login = await api.post<EmailAuthorizationResponse>('/users/verify-email', { email, ott });
    return openToken(login.body.encryptedToken, keys);
  }

  before(async () => {
    keys = await generateKeyAttributes('password', () => Promise.resolve({ ...vectorKek }));
    postgres = await testPostgres();
    database = await createScratchDatabase(postgres.url);
    const env = {
      DATABASE_URL: database.url,
      RATE_LIMIT_PER_MINUTE: '10',
      FIXED_OTTS: `${email},${ott}`,
      AUTHENTICATOR_MAX_ENTITIES: String(maxEntities),
    };
    [first, second] = await Promise.all([spawnServer(env), spawnServer(env)]);
    a = new ApiClient(first.url);
    b = new ApiClient(second.url);
    // The signup itself goes through both: the code asked on one, verified on the other.
    assert.equal((await a.post('/users/ott', { email, purpose: 'signup' })).status, 200);
    const verified = await b.post<EmailAuthorizationResponse>('/users/verify-email', { email, ott });
    assert.ok(verified.body.token, verified.text);
    const attributes = await a.put(
      '/users/attributes',
      { keyAttributes: keys.keyAttributes },
      { token: verified.body.token },
    );
    assert.equal(attributes.status, 200, attributes.text);
  });
  after(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await database?.drop();
    await postgres?.stop();
  });

  test('a token issued by one process works on the other', async () => {
    const token = await loginToken(b);
    const validity = await a.get<SessionValidityResponse>('/users/session-validity/v2', { token });
    assert.equal(validity.status, 200);
    assert.equal(validity.body.keyAttributes?.publicKey, keys.keyAttributes.publicKey);
  });

  test('a logout on one process is seen by the other, which had the token cached', async () => {
    const token = await loginToken(a);
    assert.equal((await a.get('/users/session-validity/v2', { token })).status, 200);
    assert.equal((await b.post('/users/logout', undefined, { token })).status, 200);
    await eventually(async () => {
      assert.equal((await a.get('/users/session-validity/v2', { token })).status, 401);
    });
  });

  test("one process's writes reach the other's cached diff", async () => {
    a.token = b.token = await loginToken(a);
    const wrapped = await encryptBoxB64(await generateKeyB64(), keys.masterKey);
    const key = await a.post('/authenticator/key', { encryptedKey: wrapped.encryptedData, header: wrapped.nonce });
    assert.equal(key.status, 200);
    const body = { encryptedData: toB64(new Uint8Array(40)), header: toB64(new Uint8Array(24)) };
    const existing = (await a.post<Entity>('/authenticator/entity', body)).body;
    const since = { sinceTime: existing.updatedAt, limit: 100 };
    const diffOnB = async () => (await b.get<EntityDiffResponse>('/authenticator/entity/diff', { query: since })).body;
    // B answers "nothing new" and caches that; then A writes.
    assert.deepEqual((await diffOnB()).diff, []);
    assert.deepEqual((await diffOnB()).diff, []);
    const added = (await a.post<Entity>('/authenticator/entity', body)).body;
    await eventually(async () => {
      assert.deepEqual(
        (await diffOnB()).diff.map((entity) => entity.id),
        [added.id],
      );
    });
  });

  test('creates sent to both processes at once never pass the quota of entities', async () => {
    const body = { encryptedData: toB64(new Uint8Array(40)), header: toB64(new Uint8Array(24)) };
    const live = async () =>
      (
        await a.get<EntityDiffResponse>('/authenticator/entity/diff', { query: { sinceTime: 0, limit: 100 } })
      ).body.diff.filter((entity) => !entity.isDeleted).length;
    const before = await live();
    const answers = await Promise.all(
      Array.from({ length: 2 * maxEntities }, (_, i) => (i % 2 ? a : b).post('/authenticator/entity', body)),
    );
    assert.equal(answers.filter((answer) => answer.status === 200).length, maxEntities - before);
    assert.ok(answers.every((answer) => answer.status === 200 || answer.body.code === 'ENTITY_LIMIT_REACHED'));
    assert.equal(await live(), maxEntities);
  });

  test('SRP registered through one process logs in across both (each computes in its own worker threads)', async () => {
    const srp = await setUpSrp(a, await loginToken(a), keys.kek);
    // No /users/srp/attributes here: the next test counts that path's requests.
    const loginSubKey = await deriveLoginSubKeyB64(keys.kek);
    const { verified, client } = await srpSession(a, { ...srp, loginSubKey }, b);
    assert.equal(verified.status, 200, verified.text);
    assert.ok(client.verifyM2(verified.body.srpM2 ?? ''));
    const token = await openToken(verified.body.encryptedToken, keys);
    assert.equal((await a.get('/users/session-validity/v2', { token })).status, 200);
  });

  test('a rate limit counts the requests made to both', async () => {
    const query = { email: 'nobody@example.org' };
    for (let i = 0; i < 5; i++) {
      assert.equal((await a.get('/users/srp/attributes', { query })).status, 200);
      assert.equal((await b.get('/users/srp/attributes', { query })).status, 200);
    }
    assert.equal((await a.get('/users/srp/attributes', { query })).status, 429);
    assert.equal((await b.get('/users/srp/attributes', { query })).status, 429);
  });
});
