import 'fake-indexeddb/auto';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { setAppName } from './app-name.ts';
import { ClientError, NetworkError, ServerError } from './http.ts';
import { savedLogs } from './log.ts';
import { cachesClearedOnLogout, logout } from './logout.ts';
import { registerInMemoryReset } from './storage/in-memory.ts';
import { deleteKVDatabase, getKV, removeKV, setKV } from './storage/kv.ts';
import { filesStore } from './storage/local-forage.ts';
import { registryEntries } from './storage/registry.ts';
import { saveUser } from './storage/user.ts';

const origin = 'http://localhost:8080';
const server = setupServer();
const logoutRequests: Request[] = [];
let cacheNames: Set<string>;
const fakeCaches = { delete: jest.fn<(name: string) => Promise<boolean>>() };
const inMemoryReset = jest.fn<() => void>();

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setAppName('auth');
  registerInMemoryReset('test state', inMemoryReset);
});
beforeEach(async () => {
  fakeCaches.delete.mockReset().mockImplementation((name) => Promise.resolve(cacheNames.delete(name)));
  inMemoryReset.mockReset();
  Object.defineProperty(globalThis, 'caches', { value: fakeCaches, configurable: true, writable: true });
  await seedEverything();
  answerLogoutWith(() => HttpResponse.json({}));
});
afterEach(async () => {
  jest.restoreAllMocks();
  server.resetHandlers();
  logoutRequests.length = 0;
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
  await (await filesStore()).clear();
});
afterAll(() => server.close());

test('ends the session on the server with the token and the client package', async () => {
  await logout();
  expect(logoutRequests).toHaveLength(1);
  expect(logoutRequests[0]!.method).toBe('POST');
  expect(logoutRequests[0]!.headers.get('X-Auth-Token')).toBe('the-token');
  expect(logoutRequests[0]!.headers.get('X-Client-Package')).toBe('io.ente.auth.web');
});

test('afterwards nothing registered as cleared remains, and what is kept is intact', async () => {
  localStorage.setItem('unregistered', 'stray');
  await logout();
  for (const { key, area, clearedOnLogout } of registryEntries()) {
    const value =
      area === 'kv' ? await getKV(key as 'token') : (area === 'local' ? localStorage : sessionStorage).getItem(key);
    if (clearedOnLogout) expect([area, key, value ?? null]).toEqual([area, key, null]);
    else expect([area, key, value]).toEqual([area, key, seededValue(key)]);
  }
  expect(localStorage.getItem('unregistered')).toBeNull();
  expect(sessionStorage.length).toBe(0);
  expect(await (await filesStore()).length()).toBe(0);
  expect([...cacheNames]).toEqual(['unrelated']);
  expect(inMemoryReset).toHaveBeenCalledTimes(1);
});

test('without a token nothing is sent and everything is cleared', async () => {
  await removeKV('token');
  localStorage.removeItem('user');
  await logout();
  expect(logoutRequests).toHaveLength(0);
  await expectClearedLocally();
});

test.each([
  ['an empty 401', () => HttpResponse.json({}, { status: 401 })],
  ['a 401 "invalid token"', () => HttpResponse.json({ error: 'invalid token' }, { status: 401 })],
  ['a typed 401', () => HttpResponse.json({ code: 'UNAUTHORIZED', message: '' }, { status: 401 })],
])('%s from the server counts as logged out, silently', async (_, resolver) => {
  answerLogoutWith(resolver);
  await expect(logout()).resolves.toBeUndefined();
  await expectClearedLocally();
});

test.each([
  ['a server error', () => HttpResponse.json({}, { status: 500 }), ServerError],
  ['another client error', () => HttpResponse.json({}, { status: 403 }), ClientError],
  ['a network failure', () => HttpResponse.error(), NetworkError],
])('%s is thrown, but only after everything was cleared', async (_, resolver, errorClass) => {
  answerLogoutWith(resolver);
  await expect(logout()).rejects.toBeInstanceOf(errorClass);
  await expectClearedLocally();
});

test('a token that only local storage still has ends the session too', async () => {
  await removeKV('token');
  await logout();
  expect(logoutRequests[0]!.headers.get('X-Auth-Token')).toBe('the-token');
  await expectClearedLocally();
});

describe('each cleanup step ignores and logs its own failure', () => {
  const failures: [string, () => Promise<void> | void, string][] = [
    [
      'in-memory state',
      () => {
        inMemoryReset.mockImplementation(() => {
          throw new Error('reset failed');
        });
      },
      'Could not reset the in-memory state of test state',
    ],
    [
      'session storage',
      () => {
        jest.spyOn(Storage.prototype, 'clear').mockImplementation(() => {
          throw new Error('clear failed');
        });
      },
      'Logout could not clear the session storage',
    ],
    [
      'local storage',
      () => {
        jest.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
          throw new Error('remove failed');
        });
      },
      'Logout could not clear the local storage',
    ],
    [
      'localforage database',
      async () => {
        jest.spyOn(await filesStore(), 'clear').mockRejectedValue(new Error('clear failed'));
      },
      'Logout could not clear the localforage database',
    ],
    [
      'caches',
      () => {
        fakeCaches.delete.mockRejectedValue(new Error('delete failed'));
      },
      'Logout could not delete the cache thumbs',
    ],
    [
      'kv database',
      () => {
        jest.spyOn(indexedDB, 'deleteDatabase').mockImplementation(() => {
          throw new Error('delete failed');
        });
      },
      'Logout could not clear the kv database',
    ],
  ];

  test.each(failures)('%s', async (step, breakStep, logged) => {
    await breakStep();
    await expect(logout()).resolves.toBeUndefined();
    await expectClearedLocally({ except: step });
    expect(savedLogs().map((entry) => entry.logLine)).toContainEqual(expect.stringContaining(`[error] ${logged}`));
  });

  test('one cache failing does not keep the others', async () => {
    fakeCaches.delete.mockImplementation((name: string) =>
      name === 'thumbs' ? Promise.reject(new Error('busy')) : Promise.resolve(cacheNames.delete(name)),
    );
    await logout();
    expect([...cacheNames].sort()).toEqual(['thumbs', 'unrelated']);
  });

  test('one in-memory reset failing does not stop the others', async () => {
    const other = jest.fn<() => void>();
    const unregister = registerInMemoryReset('other state', other);
    inMemoryReset.mockImplementation(() => {
      throw new Error('reset failed');
    });
    await logout();
    unregister();
    expect(other).toHaveBeenCalledTimes(1);
  });

  test('without Cache Storage (insecure context) there is nothing to delete', async () => {
    Object.defineProperty(globalThis, 'caches', { value: undefined, configurable: true, writable: true });
    delete (globalThis as { caches?: unknown }).caches;
    await expect(logout()).resolves.toBeUndefined();
    await expectClearedLocally({ except: 'caches' });
  });
});

function answerLogoutWith(resolver: () => Response | Promise<Response>) {
  server.use(
    http.post(`${origin}/users/logout`, ({ request }) => {
      logoutRequests.push(request.clone());
      return resolver();
    }),
  );
}

/** Values for every registry key, so that a test can tell what was kept. */
function seededValue(key: string): string {
  if (key === 'apiOrigin') return origin;
  if (key === 'theme') return '"light"';
  if (key === 'locale') return '"fr-FR"';
  if (key === 'logs') return '[]';
  return `"${key} value"`;
}

async function seedEverything() {
  cacheNames = new Set([...cachesClearedOnLogout, 'unrelated']);
  for (const { key, area } of registryEntries()) {
    if (area === 'local') localStorage.setItem(key, seededValue(key));
    else if (area === 'session') sessionStorage.setItem(key, seededValue(key));
  }
  await setKV('apiOrigin', origin);
  await saveUser({ id: 42, email: 'a@example.org', token: 'the-token' });
  await (await filesStore()).setItem('file', 'data');
}

/** Checks that each cleanup step did its work, apart from the one that was made to fail. */
async function expectClearedLocally({ except }: { except?: string } = {}) {
  if (except !== 'in-memory state') expect(inMemoryReset).toHaveBeenCalled();
  if (except !== 'session storage') expect(sessionStorage.length).toBe(0);
  if (except !== 'local storage') {
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('keyAttributes')).toBeNull();
    expect(localStorage.getItem('theme')).toBe('"light"');
  }
  if (except !== 'localforage database') expect(await (await filesStore()).length()).toBe(0);
  if (except !== 'caches') expect([...cacheNames]).toEqual(['unrelated']);
  if (except !== 'kv database') {
    expect(await getKV('token')).toBeUndefined();
    expect(await getKV('userID')).toBeUndefined();
    expect(await getKV('apiOrigin')).toBe(origin);
  }
}
