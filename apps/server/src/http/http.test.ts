// Transport over real HTTP (protocol §1): CORS for the configured origins, preflight 200, headers,
// JSON whatever the content type, error shapes, body limit, unknown routes, and the token rules of
// §4 (missing, invalid, other app, expired, logout, sessions).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiClient } from '../testing/client.ts';
import { emailLogin, openToken, signUp } from '../testing/flows.ts';
import { startTestServer, suiteServer } from '../testing/server.ts';

const DAY = 86_400_000_000;

describe('transport', () => {
  const { api } = suiteServer({ env: { BUILD_ID: 'test-build' } });

  test('GET /ping answers pong with an id, X-Request-Id and Cache-Control: no-store', async () => {
    const ping = await api.get('/ping');
    assert.equal(ping.status, 200);
    assert.deepEqual(ping.body, { message: 'pong', id: 'test-build' });
    assert.match(ping.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(ping.headers.get('cache-control'), 'no-store');
    const other = await api.get('/ping');
    assert.notEqual(other.headers.get('x-request-id'), ping.headers.get('x-request-id'));
  });

  test('CORS: a configured origin is echoed with credentials; others get no CORS headers', async () => {
    const allowed = await api.get('/ping', { headers: { Origin: 'http://localhost:3003' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://localhost:3003');
    assert.equal(allowed.headers.get('access-control-allow-credentials'), 'true');
    assert.equal(allowed.headers.get('access-control-expose-headers'), 'X-Request-Id');
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

  test('bodies are JSON whatever the Content-Type; invalid JSON is 400; a huge body 413', async () => {
    const email = `ct-${Date.now()}@example.org`;
    for (const type of ['text/plain;charset=UTF-8', 'application/json', 'application/x-www-form-urlencoded']) {
      const answer = await api.call('POST', '/users/ott', {
        rawBody: JSON.stringify({ email }),
        headers: { 'Content-Type': type },
      });
      assert.equal(answer.status, 200, type);
    }
    const broken = await api.call('POST', '/users/ott', {
      rawBody: '{"email": ',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual(broken.body, { code: 'BAD_REQUEST', message: 'body: invalid JSON' });
    const huge = await api.call('POST', '/users/ott', {
      rawBody: JSON.stringify({ email, pad: 'x'.repeat(2_000_000) }),
    });
    assert.equal(huge.status, 413);
    assert.equal(huge.body.code, 'BAD_REQUEST');
  });

  test('unknown routes and methods are 404 JSON with a request id', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['PATCH', '/users/ott'],
      ['GET', '/users/ott'],
    ]) {
      const answer = await api.call(method!, path!);
      assert.equal(answer.status, 404, `${method} ${path}`);
      assert.equal(answer.body.code, 'NOT_FOUND');
      assert.ok(answer.headers.get('x-request-id'));
    }
  });
});

describe('tokens', () => {
  const { server, api } = suiteServer();

  test('missing, unknown and other-app tokens are 401 with the middleware error body', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const missing = await api.get('/users/session-validity/v2', { token: null });
    assert.equal(missing.status, 401);
    assert.deepEqual(missing.body, { error: 'missing token' });
    const unknown = await api.get('/users/session-validity/v2', { token: 'A'.repeat(43) + '=' });
    assert.deepEqual(unknown.body, { error: 'invalid token' });
    const photos = await api.as('io.ente.photos.web').get('/users/session-validity/v2', { token: account.token });
    assert.equal(photos.status, 401);
    assert.deepEqual(photos.body, { error: 'invalid token' });
    const noPackage = await api.get('/users/session-validity/v2', { headers: { 'X-Client-Package': '' } });
    assert.equal(noPackage.status, 401, 'a missing package means photos');
    const mobileAuth = await api.as('io.ente.auth').get('/users/session-validity/v2', { token: account.token });
    assert.equal(mobileAuth.status, 200, 'any io.ente.auth prefix is the auth app');
    const viaQuery = await api.get('/users/session-validity/v2', { token: null, query: { token: account.token } });
    assert.equal(viaQuery.status, 200, '?token= works too');
  });

  test('tokens are stored hashed, never in the clear', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const rows = (await server.sql(`SELECT token_hash FROM tokens WHERE user_id = ${account.userID}`)) as {
      token_hash: string;
    }[];
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0]!.token_hash, account.token);
    const dump = JSON.stringify(await server.sql('SELECT * FROM tokens'));
    assert.ok(!dump.includes(account.token));
  });

  test('a token unused for more than 365 days is refused with "token expired"', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    server.clock.advance(364 * DAY);
    assert.equal((await api.get('/users/session-validity/v2')).status, 200, 'use refreshes last-used');
    server.clock.advance(364 * DAY);
    assert.equal((await api.get('/users/session-validity/v2')).status, 200);
    server.clock.advance(366 * DAY);
    const expired = await api.get('/users/session-validity/v2');
    assert.equal(expired.status, 401);
    assert.deepEqual(expired.body, { error: 'token expired' });
    assert.equal((await api.get('/users/session-validity/v2', { token: account.token })).status, 401);
  });

  test('logout revokes the calling token only', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const second = await openToken(
      (await emailLogin(api, server.mail, account.email)).body.encryptedToken,
      account.keys,
    );
    const logout = await api.post('/users/logout', undefined, { token: account.token });
    assert.equal(logout.status, 200);
    assert.deepEqual(logout.body, {});
    assert.equal((await api.get('/users/session-validity/v2', { token: account.token })).status, 401);
    assert.equal((await api.get('/users/session-validity/v2', { token: second })).status, 200);
  });

  test('sessions: the caller sees its own token, others by handle, and can end any of them', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const second = await openToken(
      (await emailLogin(api, server.mail, account.email)).body.encryptedToken,
      account.keys,
    );
    const third = await openToken(
      (await emailLogin(api, server.mail, account.email)).body.encryptedToken,
      account.keys,
    );
    const list = await api.get('/users/sessions', {
      token: account.token,
      headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' },
    });
    assert.equal(list.status, 200);
    assert.equal(list.body.sessions.length, 3);
    const tokens = list.body.sessions.map((s: { token: string }) => s.token);
    assert.ok(tokens.includes(account.token));
    assert.ok(!tokens.includes(second) && !tokens.includes(third), 'other tokens are never revealed');
    for (const session of list.body.sessions) {
      assert.equal(typeof session.creationTime, 'number');
      assert.equal(typeof session.lastUsedTime, 'number');
      assert.equal(session.ip, '127.0.0.1');
      assert.equal(typeof session.prettyUA, 'string');
    }
    const handle = tokens.find((t: string) => t !== account.token);
    assert.deepEqual((await api.delete('/users/session', { query: { token: handle }, token: account.token })).body, {});
    const statuses = await Promise.all(
      [second, third].map(async (token) => (await api.get('/users/session-validity/v2', { token })).status),
    );
    assert.deepEqual(statuses.sort(), [200, 401]);
    const survivor = statuses[0] === 200 ? second : third;
    assert.equal(
      (await api.delete('/users/session', { query: { token: survivor }, token: account.token })).status,
      200,
    );
    assert.equal((await api.get('/users/session-validity/v2', { token: survivor })).status, 401);
  });
});

describe('route rate limits', () => {
  test('ten a minute per IP and path on public routes, per user on authenticated ones', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '10' } });
    try {
      const api = new ApiClient(server.url);
      for (let i = 0; i < 10; i++) {
        assert.equal((await api.get('/users/srp/attributes', { query: { email: 'x@example.org' } })).status, 404);
      }
      const limited = await api.get('/users/srp/attributes', { query: { email: 'x@example.org' } });
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.body, { error: 'Rate limit breached, try later' });
      assert.notEqual((await api.post('/users/ott', { email: 'x@example.org' })).status, 429, 'another path');
      server.clock.advance(60_000_000);
      assert.equal((await api.get('/users/srp/attributes', { query: { email: 'x@example.org' } })).status, 404);
    } finally {
      await server.close();
    }
  });
});
