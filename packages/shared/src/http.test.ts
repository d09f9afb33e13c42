import 'fake-indexeddb/auto';

import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { z } from 'zod';

import { setAppName } from './app-name.ts';
import {
  ApiError,
  ClientError,
  del,
  getJSON,
  NetworkError,
  onUnauthorized,
  post,
  postJSON,
  put,
  putJSON,
  RequestCanceledError,
  requestsInFlight,
  requestsSettled,
  ResponseShapeError,
  ServerError,
} from './http.ts';
import { savedLogs } from './log.ts';
import { deleteKVDatabase, saveKV } from './storage/kv.ts';
import { saveUser } from './storage/local-storage.ts';
import { TokenMissingError } from './storage/user.ts';

const hosted = 'https://api.ente.com';
const server = setupServer();
const seen: Request[] = [];

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => seen.push(request.clone()));
});
beforeEach(() => setAppName('auth'));
afterEach(async () => {
  server.resetHandlers();
  seen.length = 0;
  localStorage.clear();
  await deleteKVDatabase();
});
afterAll(() => server.close());

const pong = z.object({ message: z.string() });

test('requests go to the hosted origin by default, with JSON and the client package', async () => {
  server.use(http.post(`${hosted}/echo`, async ({ request }) => HttpResponse.json({ message: await request.text() })));
  const answer = await postJSON('/echo', { a: 1 }, pong);
  expect(answer).toEqual({ message: '{"a":1}' });
  const request = seen[0]!;
  expect(request.url).toBe(`${hosted}/echo`);
  expect(request.headers.get('Content-Type')).toMatch(/^application\/json/);
  expect(request.headers.get('X-Client-Package')).toBe('io.ente.auth.web');
  expect(request.headers.has('X-Auth-Token')).toBe(false);
});

test('a stored API origin wins over the build setting', async () => {
  await saveKV('apiOrigin', 'http://self.hosted:8080');
  server.use(http.get('http://self.hosted:8080/ping', () => HttpResponse.json({ message: 'pong' })));
  await expect(getJSON('/ping', pong)).resolves.toEqual({ message: 'pong' });
});

test('the client package follows the app', async () => {
  setAppName('photos');
  server.use(http.get(`${hosted}/ping`, () => HttpResponse.json({ message: 'pong' })));
  await getJSON('/ping', pong);
  expect(seen[0]!.headers.get('X-Client-Package')).toBe('io.ente.photos.web');
});

test('authenticated calls send the token from kv, and query parameters', async () => {
  await saveUser({ id: 1, email: 'a@example.org', token: 'secret-token' });
  server.use(http.get(`${hosted}/users/two-factor/recover`, () => HttpResponse.json({ message: 'ok' })));
  await getJSON('/users/two-factor/recover', pong, {
    auth: true,
    params: { sessionID: 's 1', twoFactorType: 'totp', skipped: undefined },
  });
  const request = seen[0]!;
  expect(request.headers.get('X-Auth-Token')).toBe('secret-token');
  expect(new URL(request.url).search).toBe('?sessionID=s+1&twoFactorType=totp');
});

test('an authenticated call without a token fails before any request is sent', async () => {
  await expect(post('/users/logout', undefined, { auth: true })).rejects.toBeInstanceOf(TokenMissingError);
  expect(seen).toHaveLength(0);
});

test('an explicit token is sent as is', async () => {
  server.use(http.put(`${hosted}/users/attributes`, () => HttpResponse.json({})));
  await put('/users/attributes', { keyAttributes: {} }, { token: 'fresh' });
  expect(seen[0]!.headers.get('X-Auth-Token')).toBe('fresh');
});

test('answers that are not used accept any 2xx body', async () => {
  server.use(
    http.delete(`${hosted}/users/session`, () => new HttpResponse(null, { status: 200 })),
    http.put(`${hosted}/users/recovery-key`, () => HttpResponse.text('')),
  );
  await expect(del('/users/session', { params: { token: 't' } })).resolves.toBeUndefined();
  await expect(put('/users/recovery-key', {})).resolves.toBeUndefined();
});

test('an empty answer is not parsed: it reaches the schema as undefined', async () => {
  server.use(http.get(`${hosted}/empty`, () => new HttpResponse(null, { status: 200 })));
  await expect(getJSON('/empty', z.undefined())).resolves.toBeUndefined();
  await expect(getJSON('/empty', pong)).rejects.toBeInstanceOf(ResponseShapeError);
});

test('a request without a body has no content type; a JSON body has one', async () => {
  server.use(http.post(`${hosted}/users/logout`, () => HttpResponse.json({})));
  await post('/users/logout');
  expect(seen[0]!.headers.has('Content-Type')).toBe(false);
  expect(await seen[0]!.text()).toBe('');
});

test('an origin with a path keeps it; an absolute URL is used as it is', async () => {
  await saveKV('apiOrigin', 'http://self.hosted:8080/ente');
  server.use(
    http.get('http://self.hosted:8080/ente/ping', () => HttpResponse.json({ message: 'prefixed' })),
    http.get('http://other.host/ping', () => HttpResponse.json({ message: 'absolute' })),
  );
  await expect(getJSON('/ping', pong)).resolves.toEqual({ message: 'prefixed' });
  await expect(getJSON('http://other.host/ping', pong, { params: { a: 1 } })).resolves.toEqual({
    message: 'absolute',
  });
  expect(seen[1]!.url).toBe('http://other.host/ping?a=1');
});

test('query parameters are added to those already in the path', async () => {
  server.use(http.get(`${hosted}/list`, () => HttpResponse.json({ message: 'ok' })));
  await getJSON('/list?since=3', pong, { params: { limit: 10, all: false } });
  expect(new URL(seen[0]!.url).search).toBe('?since=3&limit=10&all=false');
});

test('an answer of the wrong shape is a ResponseShapeError', async () => {
  server.use(http.put(`${hosted}/shape`, () => HttpResponse.json({ message: 42 })));
  await expect(putJSON('/shape', {}, pong)).rejects.toBeInstanceOf(ResponseShapeError);
});

describe('failures (docs/product.md#errors)', () => {
  test('a body with code and message becomes an ApiError, whatever the status', async () => {
    server.use(
      http.post(`${hosted}/users/ott`, () =>
        HttpResponse.json({ code: 'USER_NOT_REGISTERED', message: 'no such user' }, { status: 404 }),
      ),
      http.post(`${hosted}/boom`, () => HttpResponse.json({ code: 'INTERNAL', message: '' }, { status: 500 })),
    );
    const error = await postJSON('/users/ott', { email: 'a@example.org' }, pong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'no such user', errCode: 'USER_NOT_REGISTERED', httpStatus: 404 });
    await expect(post('/boom')).rejects.toMatchObject({ name: 'ApiError', errCode: 'INTERNAL', httpStatus: 500 });
  });

  test.each([400, 401, 403, 404, 409, 410, 429])('another %i becomes a "client error"', async (status) => {
    server.use(http.get(`${hosted}/fail`, () => HttpResponse.json({}, { status })));
    const error = await getJSON('/fail', pong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ message: 'client error', httpStatus: status, detail: undefined });
  });

  test('a middleware error keeps its text', async () => {
    server.use(http.get(`${hosted}/fail`, () => HttpResponse.json({ error: 'token expired' }, { status: 401 })));
    await expect(getJSON('/fail', pong)).rejects.toMatchObject({ httpStatus: 401, detail: 'token expired' });
  });

  test.each([500, 502, 503, 304])('status %i becomes a "server error"', async (status) => {
    server.use(http.get(`${hosted}/fail`, () => new HttpResponse('oops', { status })));
    const error = await getJSON('/fail', pong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ message: 'server error', httpStatus: status });
  });

  test('no response is logged and becomes a NetworkError', async () => {
    server.use(http.get(`${hosted}/fail`, () => HttpResponse.error()));
    const error = await getJSON('/fail', pong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ message: 'Network Error' });
    expect(savedLogs().map((entry) => entry.logLine)).toContainEqual(
      expect.stringMatching(/^\[error\] GET \/fail failed without a response/),
    );
  });

  test('a failure logs the request id the server gave', async () => {
    server.use(
      http.get(`${hosted}/fail`, () => HttpResponse.json({}, { status: 500, headers: { 'X-Request-Id': 'req-42' } })),
    );
    await expect(getJSON('/fail', pong)).rejects.toBeInstanceOf(ServerError);
    expect(savedLogs().map((entry) => entry.logLine)).toContainEqual(
      expect.stringMatching(/^\[warn\] GET \/fail failed with status 500.*request id req-42/),
    );
  });

  test('a request cancelled before it was sent is a RequestCanceledError too', async () => {
    const controller = new AbortController();
    controller.abort(new Error('not a cancellation error'));
    await expect(getJSON('/never', pong, { signal: controller.signal })).rejects.toBeInstanceOf(RequestCanceledError);
    expect(seen).toHaveLength(0);
  });

  test('a cancelled request is a RequestCanceledError', async () => {
    server.use(http.get(`${hosted}/slow`, () => new Promise<never>(() => {})));
    const controller = new AbortController();
    const pending = getJSON('/slow', pong, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestCanceledError);
  });
});

describe('onUnauthorized', () => {
  const calls: { method: string; path: string }[] = [];
  let unsubscribe: () => void = () => undefined;
  beforeEach(async () => {
    calls.length = 0;
    unsubscribe = onUnauthorized((request) => calls.push(request));
    await saveUser({ id: 1, email: 'a@example.org', token: 'stale' });
  });
  afterEach(() => unsubscribe());

  test('is told once per authenticated request that the token check refused with 401', async () => {
    server.use(
      http.get(`${hosted}/users/details`, () => HttpResponse.json({ error: 'invalid token' }, { status: 401 })),
      http.post(`${hosted}/users/logout`, () => HttpResponse.json({ error: 'token expired' }, { status: 401 })),
    );
    await expect(getJSON('/users/details', pong, { auth: true })).rejects.toBeInstanceOf(ClientError);
    expect(calls).toEqual([{ method: 'GET', path: '/users/details' }]);
    await expect(post('/users/logout', {}, { auth: true })).rejects.toBeInstanceOf(ClientError);
    expect(calls).toEqual([
      { method: 'GET', path: '/users/details' },
      { method: 'POST', path: '/users/logout' },
    ]);
  });

  test('is not told about a plain 401 (a wrong code or proof) nor a typed one', async () => {
    server.use(
      http.post(`${hosted}/users/two-factor/enable`, () => HttpResponse.json({}, { status: 401 })),
      http.post(`${hosted}/users/srp`, () => HttpResponse.json({ code: 'X', message: '' }, { status: 401 })),
    );
    await expect(post('/users/two-factor/enable', {}, { auth: true })).rejects.toMatchObject({ httpStatus: 401 });
    await expect(post('/users/srp', {}, { auth: true })).rejects.toBeInstanceOf(ApiError);
    expect(calls).toEqual([]);
  });

  test('is not told about other statuses, nor about requests that were not authenticated', async () => {
    server.use(
      http.get(`${hosted}/forbidden`, () => HttpResponse.json({}, { status: 403 })),
      http.post(`${hosted}/users/verify-email`, () => HttpResponse.json({}, { status: 401 })),
      http.put(`${hosted}/users/attributes`, () => HttpResponse.json({}, { status: 401 })),
    );
    await expect(getJSON('/forbidden', pong, { auth: true })).rejects.toBeInstanceOf(ClientError);
    await expect(post('/users/verify-email', {})).rejects.toMatchObject({ httpStatus: 401 });
    await expect(put('/users/attributes', {}, { token: 'fresh' })).rejects.toMatchObject({ httpStatus: 401 });
    expect(calls).toEqual([]);
  });

  test('a listener that throws is logged; the others are still told and the request still rejects', async () => {
    const failing = onUnauthorized(() => {
      throw new Error('listener broke');
    });
    const second: string[] = [];
    const other = onUnauthorized(({ path }) => second.push(path));
    server.use(
      http.delete(`${hosted}/users/session`, () => HttpResponse.json({ error: 'invalid token' }, { status: 401 })),
    );
    await expect(del('/users/session', { auth: true })).rejects.toBeInstanceOf(ClientError);
    expect(calls).toHaveLength(1);
    expect(second).toEqual(['/users/session']);
    expect(savedLogs().map((entry) => entry.logLine)).toContainEqual(
      expect.stringMatching(/^\[error\] An onUnauthorized listener failed/),
    );
    failing();
    other();
  });

  test('stops after unsubscribing', async () => {
    unsubscribe();
    server.use(
      http.get(`${hosted}/users/details`, () => HttpResponse.json({ error: 'invalid token' }, { status: 401 })),
    );
    await expect(getJSON('/users/details', pong, { auth: true })).rejects.toBeInstanceOf(ClientError);
    expect(calls).toEqual([]);
  });
});

describe('requests in flight', () => {
  test('are waited for, until their callers have seen the answers', async () => {
    server.use(
      http.get(`${hosted}/slow`, async () => {
        await delay(30);
        return HttpResponse.json({ message: 'late' });
      }),
    );
    const seenByCaller: string[] = [];
    void getJSON('/slow', pong).then((answer) => seenByCaller.push(answer.message));
    expect(requestsInFlight()).toBe(1);
    await requestsSettled(5000);
    expect(seenByCaller).toEqual(['late']);
    expect(requestsInFlight()).toBe(0);
  });

  test('are waited for at most the bound', async () => {
    server.use(http.get(`${hosted}/hang`, () => new Promise<never>(() => {})));
    const controller = new AbortController();
    const hanging = getJSON('/hang', pong, { signal: controller.signal }).catch((e: unknown) => e);
    await requestsSettled(50);
    expect(requestsInFlight()).toBe(1);
    controller.abort();
    expect(await hanging).toBeInstanceOf(RequestCanceledError);
    expect(requestsInFlight()).toBe(0);
  });
});
