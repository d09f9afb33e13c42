// Scale-out (issue 3 "Tests"): two server processes on one PostgreSQL behave as one server. Tokens
// issued by one work on the other, a logout on one is seen by the other, rate limits count requests
// made to both, and both run the migrations at once without tripping over each other.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiClient } from './testing/client.ts';
import { spawnServer, testPostgres, type ServerProcess } from './testing/process.ts';
import { createScratchDatabase } from './testing/server.ts';
import {
  deriveLoginSubKeyB64,
  encryptBoxB64,
  generateKeyAttributes,
  generateKeyB64,
  toB64,
  type GeneratedKeys,
} from '@ente/crypto';
import { openToken, setUpSrp, srpSession, vectorKek } from './testing/flows.ts';

/** Retries `check` until it passes or two seconds went by. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 2000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('two processes on one PostgreSQL', () => {
  let postgres: { url: string; stop(): Promise<void> };
  let database: { url: string; drop(): Promise<void> };
  let first: ServerProcess;
  let second: ServerProcess;
  let keys: GeneratedKeys;
  before(async () => {
    keys = await generateKeyAttributes('password', async () => ({ ...vectorKek }));
    postgres = await testPostgres();
    database = await createScratchDatabase(postgres.url);
    const env = {
      DATABASE_URL: database.url,
      RATE_LIMIT_PER_MINUTE: '10',
      FIXED_OTTS: 'scale@example.org,123456',
    };
    [first, second] = await Promise.all([spawnServer(env), spawnServer(env)]);
  });
  after(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await database?.drop();
    await postgres?.stop();
  });

  test('a token issued by one process works on the other; logout on one is seen by both', async () => {
    const a = new ApiClient(first.url);
    const b = new ApiClient(second.url);
    assert.equal((await a.post('/users/ott', { email: 'scale@example.org', purpose: 'signup' })).status, 200);
    const verified = await b.post('/users/verify-email', { email: 'scale@example.org', ott: '123456' });
    assert.equal(verified.status, 200, verified.text);
    const token = verified.body.token;
    assert.equal((await a.put('/users/attributes', { keyAttributes: keys.keyAttributes }, { token })).status, 200);
    const validity = await b.get('/users/session-validity/v2', { token });
    assert.equal(validity.status, 200);
    assert.equal(validity.body.keyAttributes.publicKey, keys.keyAttributes.publicKey);
    assert.equal((await b.post('/users/logout', undefined, { token })).status, 200);
    // The other process learns of it through NOTIFY: within milliseconds, not necessarily at once.
    await eventually(async () => assert.equal((await a.get('/users/session-validity/v2', { token })).status, 401));
  });

  test("one process's writes reach the other's cached diff", async () => {
    const a = new ApiClient(first.url);
    const b = new ApiClient(second.url);
    await a.post('/users/ott', { email: 'scale@example.org' });
    const login = await a.post('/users/verify-email', { email: 'scale@example.org', ott: '123456' });
    const token = await openToken(login.body.encryptedToken, keys);
    a.token = b.token = token;
    const wrapped = await encryptBoxB64(await generateKeyB64(), keys.masterKey);
    assert.equal(
      (await a.post('/authenticator/key', { encryptedKey: wrapped.encryptedData, header: wrapped.nonce })).status,
      200,
    );
    const body = { encryptedData: toB64(new Uint8Array(40)), header: toB64(new Uint8Array(24)) };
    const existing = (await a.post('/authenticator/entity', body)).body;
    const since = { sinceTime: existing.updatedAt, limit: 100 };
    // B answers "nothing new" and caches that; then A writes.
    assert.deepEqual((await b.get('/authenticator/entity/diff', { query: since })).body.diff, []);
    assert.deepEqual((await b.get('/authenticator/entity/diff', { query: since })).body.diff, []);
    const added = (await a.post('/authenticator/entity', body)).body;
    await eventually(async () => {
      const diff = await b.get('/authenticator/entity/diff', { query: since });
      assert.deepEqual(
        diff.body.diff.map((entity: { id: string }) => entity.id),
        [added.id],
      );
    });
  });

  test('SRP registered through one process logs in across both (each computes in its own worker threads)', async () => {
    const a = new ApiClient(first.url);
    const b = new ApiClient(second.url);
    await a.post('/users/ott', { email: 'scale@example.org' });
    const login = await a.post('/users/verify-email', { email: 'scale@example.org', ott: '123456' });
    const srp = await setUpSrp(a, await openToken(login.body.encryptedToken, keys), keys.kek);
    // No /users/srp/attributes here: the next test counts that path's requests.
    const loginSubKey = await deriveLoginSubKeyB64(keys.kek);
    const { verified, client } = await srpSession(a, { ...srp, loginSubKey }, b);
    assert.equal(verified.status, 200, verified.text);
    assert.ok(client.verifyM2(verified.body.srpM2));
    const token = await openToken(verified.body.encryptedToken, keys);
    assert.equal((await a.get('/users/session-validity/v2', { token })).status, 200);
  });

  test('a rate limit counts the requests made to both', async () => {
    const a = new ApiClient(first.url);
    const b = new ApiClient(second.url);
    const query = { email: 'nobody@example.org' };
    for (let i = 0; i < 5; i++) {
      assert.equal((await a.get('/users/srp/attributes', { query })).status, 404);
      assert.equal((await b.get('/users/srp/attributes', { query })).status, 404);
    }
    assert.equal((await a.get('/users/srp/attributes', { query })).status, 429);
    assert.equal((await b.get('/users/srp/attributes', { query })).status, 429);
  });
});
