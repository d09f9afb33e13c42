import 'fake-indexeddb/auto';

import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { z } from 'zod';

import { setAppName } from './app-name.ts';
import { ClientError, getJSON, NetworkError, ServerError } from './http.ts';
import { log, savedLogs } from './log.ts';
import { logout } from './logout.ts';
import { registerInMemoryReset } from './storage/in-memory.ts';
import { deleteKVDatabase, removeKV, savedKV, saveKV } from './storage/kv.ts';
import { localforageStore } from './storage/local-forage.ts';
import { saveUser } from './storage/local-storage.ts';
import {
  appLocalKey,
  declareAppStorage,
  keysKeptOnLogout,
  storagePlaces,
  type KVKey,
  type StoragePlace,
} from './storage/registry.ts';
import * as s from './storage/shape.ts';

const origin = 'http://localhost:8080';
const server = setupServer();
const logoutRequests: Request[] = [];
let cacheNames: Set<string>;
const fakeCaches = {
  delete: jest.fn<(name: string) => Promise<boolean>>(),
  keys: () => Promise.resolve([...cacheNames]),
};
const inMemoryReset = jest.fn<() => void>();
const messageSchema = z.object({ message: z.string() });
// An app's own storage of every kind (as createApp hands it over): logout clears it with the shell's.
const filesDatabase = {
  kind: 'localforage',
  database: 'ente-files',
  objectStore: 'files',
  clearedOnLogout: true,
} as const;
const appStorage = {
  localKeys: [
    appLocalKey('appPreference', s.string, { keptOnLogout: true }),
    appLocalKey('appState', s.string, { keptOnLogout: false }),
  ],
  places: [
    { kind: 'idb', database: 'app-cache', clearedOnLogout: true },
    filesDatabase,
    { kind: 'cache', cache: 'thumbs', clearedOnLogout: true },
    { kind: 'cache', cache: 'face-crops', clearedOnLogout: true },
    { kind: 'cache', cache: 'app-precache-v2', byPrefix: true, clearedOnLogout: true },
  ],
} as const;

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setAppName('auth');
  declareAppStorage(appStorage);
  registerInMemoryReset('test state', inMemoryReset);
});
beforeEach(async () => {
  fakeCaches.delete.mockReset().mockImplementation((name) => Promise.resolve(cacheNames.delete(name)));
  inMemoryReset.mockReset();
  Object.defineProperty(globalThis, 'caches', { value: fakeCaches, configurable: true, writable: true });
  await seedEveryPlace();
  answerLogoutWith(() => HttpResponse.json({}));
});
afterEach(async () => {
  jest.restoreAllMocks();
  server.resetHandlers();
  logoutRequests.length = 0;
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
  await (await localforageStore(filesDatabase)).clear();
});
afterAll(() => server.close());

test('ends the session on the server with the token and the client package', async () => {
  await logout();
  expect(logoutRequests).toHaveLength(1);
  expect(logoutRequests[0]!.method).toBe('POST');
  expect(logoutRequests[0]!.headers.get('X-Auth-Token')).toBe('the-token');
  expect(logoutRequests[0]!.headers.get('X-Client-Package')).toBe('io.ente.auth.web');
});

test('afterwards nothing the registry marks cleared remains, and what it keeps is intact', async () => {
  localStorage.setItem('unregistered', 'stray');
  await logout();
  await expectNothingClearedRemains();
  expect(localStorage.getItem('unregistered')).toBeNull();
});

test('the in-memory state is reset', async () => {
  await logout();
  expect(inMemoryReset).toHaveBeenCalled();
});

test('what a request in flight writes after the first sweep is gone after logout', async () => {
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  server.use(
    http.get(`${origin}/users/details`, async () => {
      await answered;
      return HttpResponse.json({ message: 'late' });
    }),
  );
  // The answer arrives once the first sweep is over and logout waits for the requests in flight.
  jest.spyOn(log, 'info').mockImplementation((message: string) => {
    if (message.startsWith('Logout waits for 1 requests in flight')) answer();
  });
  let firstSweepWasOver = false;
  // The caller writes at once on the answer, as a page would.
  const late = getJSON('/users/details', messageSchema).then(async () => {
    firstSweepWasOver = localStorage.getItem('user') === null;
    localStorage.setItem('keyAttributes', '{"late":true}');
    sessionStorage.setItem('encryptionKey', '{"late":true}');
    await saveKV('token', 'late-token');
  });

  await logout();
  await late;
  expect(firstSweepWasOver).toBe(true);
  await expectNothingClearedRemains();
});

test('a request that never answers holds logout back only for the bound', async () => {
  server.use(http.get(`${origin}/users/details`, () => new Promise<never>(() => {})));
  const controller = new AbortController();
  const hanging = getJSON('/users/details', messageSchema, { signal: controller.signal }).catch(() => undefined);
  await logout({ requestsWaitMs: 20 });
  await expectNothingClearedRemains();
  controller.abort();
  await hanging;
});

test('without a token nothing is sent and everything is cleared', async () => {
  await removeKV('token');
  localStorage.removeItem('user');
  await logout();
  expect(logoutRequests).toHaveLength(0);
  await expectNothingClearedRemains();
});

test.each([
  ['an empty 401', () => HttpResponse.json({}, { status: 401 })],
  ['a 401 "invalid token"', () => HttpResponse.json({ error: 'invalid token' }, { status: 401 })],
  ['a typed 401', () => HttpResponse.json({ code: 'UNAUTHORIZED', message: '' }, { status: 401 })],
])('%s from the server counts as logged out, silently', async (_, resolver) => {
  answerLogoutWith(resolver);
  await expect(logout()).resolves.toBeUndefined();
  await expectNothingClearedRemains();
});

test.each([
  ['a server error', () => HttpResponse.json({}, { status: 500 }), ServerError],
  ['another client error', () => HttpResponse.json({}, { status: 403 }), ClientError],
  ['a network failure', () => HttpResponse.error(), NetworkError],
])('%s is thrown, but only after everything was cleared', async (_, resolver, errorClass) => {
  answerLogoutWith(resolver);
  await expect(logout()).rejects.toBeInstanceOf(errorClass);
  await expectNothingClearedRemains();
});

test('a token that only local storage still has ends the session too', async () => {
  await removeKV('token');
  await logout();
  expect(logoutRequests[0]!.headers.get('X-Auth-Token')).toBe('the-token');
  await expectNothingClearedRemains();
});

describe('each clean-up step ignores and logs its own failure', () => {
  const failures: [Step, () => Promise<void> | void, string][] = [
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
      'sessionStorage',
      () => {
        jest.spyOn(Storage.prototype, 'clear').mockImplementation(() => {
          throw new Error('clear failed');
        });
      },
      'Logout could not clear the session storage',
    ],
    [
      'localStorage',
      () => {
        jest.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
          throw new Error('remove failed');
        });
      },
      'Logout could not clear the local storage',
    ],
    [
      'localforage',
      async () => {
        jest.spyOn(await localforageStore(filesDatabase), 'dropInstance').mockRejectedValue(new Error('drop failed'));
      },
      'Logout could not clear the localforage database ente-files',
    ],
    [
      'cache',
      () => {
        fakeCaches.delete.mockRejectedValue(new Error('delete failed'));
      },
      'Logout could not clear the cache thumbs',
    ],
    [
      'kv',
      () => {
        const deleteDatabase = indexedDB.deleteDatabase.bind(indexedDB);
        jest.spyOn(indexedDB, 'deleteDatabase').mockImplementation((name) => {
          if (name === 'kv') throw new Error('delete failed');
          return deleteDatabase(name);
        });
      },
      'Logout could not clear the kv database',
    ],
  ];

  test.each(failures)('%s', async (step, breakStep, logged) => {
    await breakStep();
    await expect(logout()).resolves.toBeUndefined();
    await expectNothingClearedRemains({ except: step });
    expect(savedLogs().map((entry) => entry.logLine)).toContainEqual(expect.stringContaining(`[error] ${logged}`));
  });

  test('one cache failing does not keep the others', async () => {
    fakeCaches.delete.mockImplementation((name: string) =>
      name === 'thumbs' ? Promise.reject(new Error('busy')) : Promise.resolve(cacheNames.delete(name)),
    );
    await logout();
    const keptCaches = storagePlaces().flatMap((place) =>
      place.kind === 'cache' && !place.clearedOnLogout ? [place.cache] : [],
    );
    expect([...cacheNames].sort()).toEqual(['thumbs', 'unrelated', ...keptCaches].sort());
  });

  test('one in-memory reset failing does not stop the others', async () => {
    const other = jest.fn<() => void>();
    const unregister = registerInMemoryReset('other state', other);
    inMemoryReset.mockImplementation(() => {
      throw new Error('reset failed');
    });
    await logout();
    unregister();
    expect(other).toHaveBeenCalled();
  });

  test('the service workers of the origin are unregistered (they would serve and refill their caches)', async () => {
    const unregister = jest.fn(() => Promise.resolve(true));
    Object.defineProperty(navigator, 'serviceWorker', {
      value: { getRegistrations: () => Promise.resolve([{ unregister }, { unregister }]) },
      configurable: true,
    });
    try {
      await logout();
    } finally {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker;
    }
    expect(unregister).toHaveBeenCalledTimes(4); // two workers, in both sweeps
  });

  test('without Cache Storage (insecure context) there is nothing to delete', async () => {
    delete (globalThis as { caches?: unknown }).caches;
    await expect(logout()).resolves.toBeUndefined();
    await expectNothingClearedRemains({ except: 'cache' });
  });
});

/** A clean-up step: the in-memory state, or a kind of place of the registry. */
type Step = 'in-memory state' | StoragePlace['kind'];

function answerLogoutWith(resolver: () => Response | Promise<Response>) {
  server.use(
    http.post(`${origin}/users/logout`, ({ request }) => {
      logoutRequests.push(request.clone());
      return resolver();
    }),
  );
}

/** A value for every key, so that a test can tell what was kept. */
function seededValue(key: string): string {
  if (key === 'apiOrigin') return origin;
  if (key === 'theme') return '"light"';
  if (key === 'locale') return '"fr-FR"';
  if (key === 'logs') return '[]';
  return `"${key} value"`;
}

/** A database `name` with one object store holding one record. */
function createDatabaseWithData(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore('things').put('data', 'key');
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });
}

/** Puts something into every place of the registry, and a signed-in user. */
async function seedEveryPlace() {
  cacheNames = new Set(['unrelated']);
  for (const place of storagePlaces()) {
    switch (place.kind) {
      case 'localStorage':
      case 'sessionStorage':
        for (const key of Object.keys(place.keys)) globalThis[place.kind].setItem(key, seededValue(key));
        break;
      case 'kv':
        for (const key of Object.keys(place.keys) as KVKey[]) await saveKV(key, seededValue(key));
        break;
      case 'localforage':
        await (await localforageStore(place)).setItem('file', 'data');
        break;
      case 'idb':
        await createDatabaseWithData(place.database);
        break;
      case 'cache':
        // A cache named by prefix carries a suffix (Workbox: the service worker's scope).
        cacheNames.add('byPrefix' in place ? `${place.cache}-http://localhost/` : place.cache);
        break;
    }
  }
  await saveUser({ id: 42, email: 'a@example.org', token: 'the-token' });
}

/**
 * Walks the registry: each place it marks cleared holds nothing but the keys it keeps, and those
 * unchanged (the log excepted, which logout writes to). `except` is a step that was made to fail.
 */
async function expectNothingClearedRemains({ except }: { except?: Step } = {}) {
  if (except !== 'in-memory state') expect(inMemoryReset).toHaveBeenCalled();
  for (const place of storagePlaces()) {
    if (!place.clearedOnLogout || place.kind === except) continue;
    const kept = keysKeptOnLogout(place);
    switch (place.kind) {
      case 'localStorage':
      case 'sessionStorage': {
        const storage = globalThis[place.kind];
        const remaining = Object.fromEntries(
          Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '').map((key) => [
            key,
            key === 'logs' ? '(the log)' : storage.getItem(key),
          ]),
        );
        const expected = Object.fromEntries(kept.map((key) => [key, key === 'logs' ? '(the log)' : seededValue(key)]));
        expect([place.kind, remaining]).toEqual([place.kind, expected]);
        break;
      }
      case 'kv':
        for (const key of Object.keys(place.keys) as KVKey[]) {
          const expected = kept.includes(key) ? seededValue(key) : undefined;
          expect([key, await savedKV(key)]).toEqual([key, expected]);
        }
        break;
      case 'localforage':
      case 'idb':
        // The whole database is gone, not only emptied (a browser would still list an empty one).
        expect((await indexedDB.databases()).map((database) => database.name)).not.toContain(place.database);
        break;
      case 'cache':
        expect([...cacheNames].filter((name) => name.startsWith(place.cache))).toEqual([]);
        break;
    }
  }
}
