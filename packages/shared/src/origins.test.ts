import 'fake-indexeddb/auto';

import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { setAppName } from './app-name.ts';
import {
  accountsAppOrigin,
  apiOrigin,
  ApiOriginError,
  canChangeApiOrigin,
  normaliseApiOrigin,
  saveApiOrigin,
  savedApiOrigin,
} from './origins.ts';
import type * as OriginsModule from './origins.ts';
import { deleteKVDatabase, savedKV, saveKV } from './storage/kv.ts';

const server = setupServer();
const pings: Request[] = [];

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => pings.push(request));
  setAppName('auth');
});
afterEach(async () => {
  server.resetHandlers();
  pings.length = 0;
  await deleteKVDatabase();
});
afterAll(() => server.close());

test('without a stored origin the API is the build setting (here the hosted default)', async () => {
  expect(await apiOrigin()).toBe('https://api.ente.com');
  expect(accountsAppOrigin()).toBe('https://accounts.ente.com');
});

test('the build settings come before the defaults, and a stored origin before both', async () => {
  const env = process.env as Record<string, string | undefined>;
  env.NEXT_PUBLIC_ENTE_ENDPOINT = 'http://localhost:8080';
  env.NEXT_PUBLIC_ENTE_ACCOUNTS_URL = 'http://localhost:3001/';
  let origins: typeof OriginsModule | undefined;
  try {
    jest.isolateModules(() => {
      origins = jest.requireActual<typeof OriginsModule>('./origins.ts');
    });
  } finally {
    delete env.NEXT_PUBLIC_ENTE_ENDPOINT;
    delete env.NEXT_PUBLIC_ENTE_ACCOUNTS_URL;
  }
  expect(await origins!.apiOrigin()).toBe('http://localhost:8080');
  expect(origins!.accountsAppOrigin()).toBe('http://localhost:3001');
  await saveKV('apiOrigin', 'https://self.hosted');
  expect(await origins!.apiOrigin()).toBe('https://self.hosted');
});

test('an origin that answers pong is saved and used', async () => {
  server.use(http.get('http://localhost:8080/ping', () => HttpResponse.json({ message: 'pong', id: 'abc' })));
  await saveApiOrigin(' http://localhost:8080/ ');
  expect(await savedKV('apiOrigin')).toBe('http://localhost:8080');
  expect(await apiOrigin()).toBe('http://localhost:8080');
  expect(pings[0]!.headers.get('X-Client-Package')).toBe('io.ente.auth.web');
});

test('an origin with a path prefix keeps it', async () => {
  server.use(http.get('https://example.org/api/ping', () => HttpResponse.json({ message: 'pong' })));
  await saveApiOrigin('https://example.org/api');
  expect(await savedApiOrigin()).toBe('https://example.org/api');
});

test.each([
  ['an unreachable origin', () => HttpResponse.error(), 'unreachable'],
  ['an origin answering an error', () => HttpResponse.json({}, { status: 500 }), 'unreachable'],
  ['an origin answering something else', () => HttpResponse.json({ message: 'hello' }), 'notAServer'],
  ['an origin answering HTML', () => HttpResponse.html('<html></html>'), 'notAServer'],
] as const)('%s is refused and nothing is saved', async (_, resolver, problem) => {
  server.use(http.get('http://localhost:9999/ping', resolver));
  const error = await saveApiOrigin('http://localhost:9999').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiOriginError);
  expect(error).toMatchObject({ problem });
  expect(await savedApiOrigin()).toBeUndefined();
});

test.each(['localhost:8080', 'ftp://example.org', 'not a url', 'https://user:pw@example.org', 'https://x.org/?a=1'])(
  '%s is not a valid origin, and is not pinged',
  async (input) => {
    await expect(saveApiOrigin(input)).rejects.toMatchObject({ name: 'ApiOriginError', problem: 'invalidURL' });
    expect(pings).toHaveLength(0);
  },
);

test('clearing removes the stored origin', async () => {
  server.use(http.get('http://localhost:8080/ping', () => HttpResponse.json({ message: 'pong' })));
  await saveApiOrigin('http://localhost:8080');
  await saveApiOrigin(undefined);
  expect(await savedApiOrigin()).toBeUndefined();
  await saveApiOrigin('http://localhost:8080');
  await saveApiOrigin('  ');
  expect(await apiOrigin()).toBe('https://api.ente.com');
});

test('normalising drops trailing slashes', () => {
  expect(normaliseApiOrigin('HTTPS://Example.org:8443//')).toBe('https://example.org:8443');
});

test('the hosted apps never let the origin change', () => {
  expect(canChangeApiOrigin('auth.ente.com')).toBe(false);
  expect(canChangeApiOrigin('web.ente.io')).toBe(false);
  expect(canChangeApiOrigin('accounts.ente.sh')).toBe(false);
  expect(canChangeApiOrigin('localhost')).toBe(true);
  expect(canChangeApiOrigin('auth.example.org')).toBe(true);
  expect(canChangeApiOrigin('notente.com')).toBe(true);
});
