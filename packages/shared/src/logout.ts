// Logout (docs/protocol.md#logout): end the session on the server, then forget everything this browser
// keeps about the account. See: [Note: Logout]
//
// [Note: Logout]
// 1. POST /users/logout with the token. No token, or a 401 (the session is already gone): done,
//    silently. Any other failure is remembered and rethrown at the very end.
// 2. Local clean-up, which always runs because the user asked to be signed out: the in-memory state,
//    then every place of the storage registry marked `clearedOnLogout`, keeping the keys it marks
//    `keptOnLogout` (registry.ts). Each step logs and ignores its own failure.
// 3. Requests still in flight may answer after that and write what they got; logout waits for them
//    (at most `requestsWaitMs`) and clears everything a second time.
// So logout() rejects only for a remote failure, and only after the clean-up has finished. The caller
// then loads '/' afresh (app/navigation.ts), so nothing of the signed-in app survives in memory.
import { ApiError, ClientError, post, requestsInFlight, requestsSettled } from './http.ts';
import { log } from './log.ts';
import { resetInMemoryState } from './storage/in-memory.ts';
import { deleteIndexedDatabase } from './storage/indexed-db.ts';
import { deleteKVDatabase, savedKV, saveKV } from './storage/kv.ts';
import { deleteLocalforageDatabase } from './storage/local-forage.ts';
import { savedUser } from './storage/local-storage.ts';
import { keysKeptOnLogout, storagePlaces, type KVKey, type StoragePlace } from './storage/registry.ts';
import { savedAuthToken, TokenMirrorError } from './storage/user.ts';

/** How long logout waits for requests in flight before its second sweep, by default. */
export const defaultRequestsWaitMs = 2000;

export async function logout({ requestsWaitMs = defaultRequestsWaitMs } = {}): Promise<void> {
  try {
    await endRemoteSession();
  } catch (e) {
    log.error('Could not end the session on the server', e);
    await forgetEverything(requestsWaitMs);
    throw e;
  }
  await forgetEverything(requestsWaitMs);
}

/** Clears the local state, waits for the requests in flight, and clears it again. */
async function forgetEverything(requestsWaitMs: number): Promise<void> {
  await clearLocalState();
  const pending = requestsInFlight();
  if (pending > 0) {
    log.info(`Logout waits for ${pending} requests in flight`);
    await requestsSettled(requestsWaitMs);
  }
  await clearLocalState();
}

async function endRemoteSession(): Promise<void> {
  let token: string | undefined;
  try {
    token = await savedAuthToken();
  } catch (e) {
    // The kv mirror lost the token; the local copy can still end the session on the server.
    if (!(e instanceof TokenMirrorError)) throw e;
    log.warn('Logging out with the token of local storage', e);
    token = savedUser()?.token;
  }
  if (!token) return;
  try {
    await post('/users/logout', undefined, { token });
  } catch (e) {
    const unauthorized = (e instanceof ApiError || e instanceof ClientError) && e.httpStatus === 401;
    if (!unauthorized) throw e;
  }
}

/** The in-memory state, then each place the registry clears on logout; a failing step is logged and skipped. */
async function clearLocalState(): Promise<void> {
  await resetInMemoryState();
  try {
    await unregisterServiceWorkers();
  } catch (e) {
    log.error('Logout could not unregister the service workers', e);
  }
  for (const place of storagePlaces()) {
    if (!place.clearedOnLogout) continue;
    try {
      await clearPlace(place);
    } catch (e) {
      log.error(`Logout could not clear ${describePlace(place)}`, e);
    }
  }
}

async function clearPlace(place: StoragePlace): Promise<void> {
  const kept = keysKeptOnLogout(place);
  switch (place.kind) {
    case 'localStorage':
      removeAllBut(localStorage, kept);
      return;
    case 'sessionStorage':
      removeAllBut(sessionStorage, kept);
      return;
    case 'kv':
      await recreateKVDatabase(kept as KVKey[]);
      return;
    case 'localforage':
      await deleteLocalforageDatabase(place);
      return;
    case 'idb':
      await deleteIndexedDatabase(place.database);
      return;
    case 'cache': {
      // Cache Storage exists only in secure contexts; without it there is nothing to delete.
      if (typeof caches === 'undefined') return;
      const names =
        'byPrefix' in place ? (await caches.keys()).filter((name) => name.startsWith(place.cache)) : [place.cache];
      for (const name of names) await caches.delete(name);
      return;
    }
  }
}

/**
 * A service worker of this origin (the auth app's, for offline use) would go on serving its precache
 * and filling it again; the next sign-in registers it afresh.
 */
async function unregisterServiceWorkers(): Promise<void> {
  // Absent outside secure contexts (and in jsdom).
  const container = (globalThis.navigator as { serviceWorker?: ServiceWorkerContainer } | undefined)?.serviceWorker;
  if (!container) return;
  const registrations = await container.getRegistrations();
  await Promise.all(
    registrations.map(async (registration) => {
      // A worker still installing would go on filling its precache after the caches are deleted.
      const installing = registration.installing;
      if (installing) await installed(installing, installWaitMs);
      await registration.unregister();
    }),
  );
}

/** How long logout waits for a service worker that is installing. */
const installWaitMs = 10_000;

/** Resolves once `worker` is no longer installing, or after `timeoutMs`. */
function installed(worker: ServiceWorker, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    function done() {
      clearTimeout(timer);
      worker.removeEventListener('statechange', onChange);
      resolve();
    }
    function onChange() {
      if (worker.state !== 'installing') done();
    }
    worker.addEventListener('statechange', onChange);
    onChange();
  });
}

function describePlace(place: StoragePlace): string {
  switch (place.kind) {
    case 'localStorage':
      return 'the local storage';
    case 'sessionStorage':
      return 'the session storage';
    case 'kv':
      return 'the kv database';
    case 'localforage':
      return `the localforage database ${place.database}`;
    case 'idb':
      return `the database ${place.database}`;
    case 'cache':
      return `the cache ${place.cache}`;
  }
}

/** Removes every key of a web storage but the kept ones, also keys the registry does not know. */
function removeAllBut(storage: Storage, kept: string[]): void {
  if (kept.length === 0) {
    storage.clear();
    return;
  }
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key !== null && !kept.includes(key)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}

/** Deletes the kv database (whatever it holds) and writes the kept keys back. */
async function recreateKVDatabase(kept: KVKey[]): Promise<void> {
  const values = new Map<KVKey, string>();
  for (const key of kept) {
    try {
      const value = await savedKV(key);
      if (value !== undefined) values.set(key, value);
    } catch (e) {
      log.warn(`Logout drops the unreadable kv value of ${key}`, e);
    }
  }
  await deleteKVDatabase();
  for (const [key, value] of values) await saveKV(key, value);
}
