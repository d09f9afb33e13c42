// Transport over real HTTP (docs/protocol.md#transport, docs/protocol.md#errors): CORS for the
// configured origins, preflight 200, headers, JSON whatever the content type, error shapes, body limit,
// unknown routes; the token rules of docs/protocol.md#auth-tokens (missing, invalid, other app,
// expired, logout, sessions); and the route rate limits of docs/protocol.md#rate-limits.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import type { PingResponse, SessionsResponse } from '@ente/protocol';

import { emailLoginToken, signUp, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const MINUTE = 60_000_000;
const DAY = 86_400_000_000;

describe('transport', () => {
  const { api } = suiteServer({ env: { BUILD_ID: 'test-build' } });

  test('GET /ping answers pong with the build ID', async () => {
    const ping = await api.get<PingResponse>('/ping');
    assert.equal(ping.status, 200);
    assert.deepEqual(ping.body, { message: 'pong', id: 'test-build' });
  });

  test('every answer carries its own X-Request-Id', async () => {
    const first = (await api.get('/ping')).headers.get('x-request-id');
    const second = (await api.get('/ping')).headers.get('x-request-id');
    assert.match(first ?? '', /^[0-9a-f-]{36}$/);
    assert.notEqual(first, second);
  });

  test('GET answers are Cache-Control: no-store', async () => {
    assert.equal((await api.get('/ping')).headers.get('cache-control'), 'no-store');
  });

  test('CORS: a configured origin is echoed with credentials and the request ID exposed', async () => {
    const allowed = await api.get('/ping', { headers: { Origin: 'http://localhost:3003' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://localhost:3003');
    assert.equal(allowed.headers.get('access-control-allow-credentials'), 'true');
    assert.equal(allowed.headers.get('access-control-expose-headers'), 'X-Request-Id, ETag');
  });

  test('CORS: other origins get no CORS headers', async () => {
    const foreign = await api.get('/ping', { headers: { Origin: 'https://evil.example' } });
    assert.equal(foreign.headers.get('access-control-allow-origin'), null);
  });

  test('preflight is 200 with methods, headers and max age, for any path', async () => {
    const preflight = await api.call('OPTIONS', '/authenticator/entity', {
      headers: {
        Origin: 'http://127.0.0.1:3000',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'x-auth-token, x-client-package, content-type',
      },
    });
    assert.equal(preflight.status, 200);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://127.0.0.1:3000');
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'POST, OPTIONS, GET, PUT, PATCH, DELETE');
    const allowedHeaders = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['x-auth-token', 'x-client-package', 'content-type', 'x-client-version']) {
      assert.ok(allowedHeaders.includes(header), header);
    }
    assert.equal(preflight.headers.get('access-control-max-age'), '1728000');
    assert.ok(preflight.headers.get('x-request-id'));
  });

  test('invalid JSON is 400 "body: invalid JSON"', async () => {
    const broken = await api.call('POST', '/users/ott', {
      rawBody: '{"email": ',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual(broken.body, { code: 'BAD_REQUEST', message: 'body: invalid JSON' });
  });

  test('a body over the limit is 413 BAD_REQUEST', async () => {
    const huge = await api.call('POST', '/users/ott', {
      rawBody: JSON.stringify({ email: 'huge@example.org', pad: 'x'.repeat(2_000_000) }),
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.code, 'BAD_REQUEST');
  });

  test('unknown routes and methods are 404 JSON with a request ID', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['PATCH', '/users/ott'],
      ['GET', '/users/ott'],
    ] as const) {
      const answer = await api.call(method, path);
      assert.equal(answer.status, 404, `${method} ${path}`);
      assert.equal(answer.body.code, 'NOT_FOUND');
      assert.ok(answer.headers.get('x-request-id'));
    }
  });
});

describe('tokens', () => {
  const { server, api } = suiteServer();
  const validity = (options: Parameters<typeof api.get>[1] = {}) => api.get('/users/session-validity/v2', options);
  const statusWith = async (token: string) => (await validity({ token })).status;

  /** An account for the tests that only present its token. */
  let account: Account;
  before(async () => {
    account = await signUp(api, server.mail, { srp: false });
  });

  test('a missing token is 401 "missing token"', async () => {
    const missing = await validity({ token: null });
    assert.equal(missing.status, 401);
    assert.deepEqual(missing.body, { error: 'missing token' });
  });

  test('an unknown token is 401 "invalid token"', async () => {
    const unknown = await validity({ token: 'A'.repeat(43) + '=' });
    assert.equal(unknown.status, 401);
    assert.deepEqual(unknown.body, { error: 'invalid token' });
  });

  test('another app\'s token is 401 "invalid token"', async () => {
    const photos = await api.as('io.ente.photos.web').get('/users/session-validity/v2', { token: account.token });
    assert.equal(photos.status, 401);
    assert.deepEqual(photos.body, { error: 'invalid token' });
  });

  test('a request without X-Client-Package is the photos app', async () => {
    const noPackage = await validity({ token: account.token, headers: { 'X-Client-Package': '' } });
    assert.equal(noPackage.status, 401);
  });

  test('any io.ente.auth prefix is the auth app', async () => {
    const mobile = await api.as('io.ente.auth').get('/users/session-validity/v2', { token: account.token });
    assert.equal(mobile.status, 200);
  });

  test('the token may come as ?token=', async () => {
    assert.equal((await validity({ token: null, query: { token: account.token } })).status, 200);
  });

  test('tokens are stored hashed, never in the clear', async () => {
    const rows = (await server.sql(`SELECT token_hash FROM tokens WHERE user_id = ${account.userID}`)) as {
      token_hash: string;
    }[];
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]?.token_hash, account.token);
    const dump = JSON.stringify(await server.sql('SELECT * FROM tokens'));
    assert.ok(!dump.includes(account.token));
  });

  test('logout revokes the calling token only', async () => {
    const own = await signUp(api, server.mail, { srp: false });
    const second = await emailLoginToken(api, server.mail, own);
    const logout = await api.post('/users/logout', undefined, { token: own.token });
    assert.equal(logout.status, 200);
    assert.deepEqual(logout.body, {});
    assert.equal(await statusWith(own.token), 401);
    assert.equal(await statusWith(second), 200);
  });

  describe('sessions', () => {
    /** An account logged in three times: its signup token and two more. */
    async function threeSessions() {
      const own = await signUp(api, server.mail, { srp: false });
      const others = [await emailLoginToken(api, server.mail, own), await emailLoginToken(api, server.mail, own)];
      const list = await api.get<SessionsResponse>('/users/sessions', {
        token: own.token,
        headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' },
      });
      assert.equal(list.status, 200);
      return { own, others, list };
    }
    const endSession = (token: string, caller: string) =>
      api.delete('/users/session', { query: { token }, token: caller });

    test("the caller sees its own token and the others' by handle, with times, IP and device", async () => {
      const { own, others, list } = await threeSessions();
      const tokens = list.body.sessions.map((session) => session.token);
      assert.equal(tokens.length, 3);
      assert.ok(tokens.includes(own.token));
      assert.ok(!others.some((token) => tokens.includes(token)), 'other tokens are never revealed');
      for (const session of list.body.sessions) {
        assert.equal(typeof session.creationTime, 'number');
        assert.equal(typeof session.lastUsedTime, 'number');
        assert.equal(session.ip, '127.0.0.1');
        assert.equal(typeof session.prettyUA, 'string');
      }
    });

    test('a session can be ended by its handle', async () => {
      const { own, others, list } = await threeSessions();
      const handle = list.body.sessions.map((session) => session.token).find((token) => token !== own.token);
      assert.ok(handle);
      assert.deepEqual((await endSession(handle, own.token)).body, {});
      const statuses = await Promise.all(others.map(statusWith));
      assert.deepEqual(statuses.sort(), [200, 401], 'exactly one of the others ended');
    });

    test('a session can be ended by its token', async () => {
      const { own, others } = await threeSessions();
      const [other] = others;
      assert.ok(other);
      assert.equal((await endSession(other, own.token)).status, 200);
      assert.equal(await statusWith(other), 401);
    });
  });

  // These move the clock by years: they come last, after the tests that use the shared account.
  test('using a token keeps it alive past 365 days in all', async () => {
    const { token } = await signUp(api, server.mail, { srp: false });
    server.clock.advance(364 * DAY);
    assert.equal(await statusWith(token), 200);
    server.clock.advance(364 * DAY);
    assert.equal(await statusWith(token), 200);
  });

  test('a token unused for more than 365 days is 401 "token expired"', async () => {
    const { token } = await signUp(api, server.mail, { srp: false });
    server.clock.advance(366 * DAY);
    const expired = await validity({ token });
    assert.equal(expired.status, 401);
    assert.deepEqual(expired.body, { error: 'token expired' });
  });
});

describe('route rate limits', () => {
  const { server, api } = suiteServer({ env: { RATE_LIMIT_PER_MINUTE: '10' } });
  const email = 'x@example.org';
  const attributes = async () => (await api.get('/users/srp/attributes', { query: { email } })).status;
  /** Starts a new one-minute window, so each test counts from zero. */
  const nextMinute = () => server.clock.advance(MINUTE);
  const useUpPublicLimit = async () => {
    for (let i = 0; i < 10; i++) assert.equal(await attributes(), 200, `request ${i}`);
  };

  test('the eleventh request a minute from one IP to a public path is 429', async () => {
    nextMinute();
    await useUpPublicLimit();
    const limited = await api.get('/users/srp/attributes', { query: { email } });
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { error: 'Rate limit breached, try later' });
  });

  test('another path has its own count', async () => {
    nextMinute();
    await useUpPublicLimit();
    assert.notEqual((await api.post('/users/ott', { email })).status, 429);
  });

  test('the next minute counts afresh', async () => {
    nextMinute();
    await useUpPublicLimit();
    nextMinute();
    assert.equal(await attributes(), 200);
  });

  test('authenticated paths count per user', async () => {
    const first = await signUp(api, server.mail, { srp: false });
    const second = await signUp(api, server.mail, { srp: false });
    nextMinute();
    const status = async (token: string) => (await api.get('/users/two-factor/status', { token })).status;
    for (let i = 0; i < 10; i++) assert.equal(await status(first.token), 200, `request ${i}`);
    assert.equal(await status(first.token), 429);
    assert.equal(await status(second.token), 200);
  });
});
