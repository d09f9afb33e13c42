// Logout (spec §4, protocol §7.8): end the session on the server, then forget everything this browser
// keeps about the account. See: [Note: Logout]
//
// [Note: Logout]
// 1. POST /users/logout with the token. No token, or a 401 (the session is already gone): done,
//    silently. Any other failure is remembered and rethrown at the very end.
// 2. Local cleanup, which always runs because the user asked to be signed out: in-memory state,
//    session storage, local storage (keeping what the registry keeps: logs, theme, locale), the
//    localforage database, the caches thumbs, face-crops and files, and the kv database (deleted and
//    recreated with only the kept apiOrigin). Each step logs and ignores its own failure.
// So logout() rejects only for a remote failure, and only after the cleanup has finished: the caller
// navigates to '/' either way (e.g. in `finally`) and may tell the user the server could not be reached.
import { ApiError, ClientError, post } from './http.ts';
import { log } from './log.ts';
import { resetInMemoryState } from './storage/in-memory.ts';
import { deleteKVDatabase, getKV, setKV } from './storage/kv.ts';
import { filesStore } from './storage/local-forage.ts';
import { keysKeptOnLogout, type KVKey } from './storage/registry.ts';
import { savedAuthToken, savedUser, TokenMirrorError } from './storage/user.ts';

/** The Cache Storage caches of file data that logout deletes (spec §9). */
export const cachesClearedOnLogout = ['thumbs', 'face-crops', 'files'] as const;

export async function logout(): Promise<void> {
  let remoteFailure: unknown;
  try {
    await endRemoteSession();
  } catch (e) {
    log.error('Could not end the session on the server', e);
    remoteFailure = e;
  }
  await clearLocalState();
  if (remoteFailure !== undefined) throw remoteFailure;
}

/** The cleanup steps, in order; each one's failure is logged and ignored. */
export async function clearLocalState(): Promise<void> {
  const steps: [string, () => void | Promise<void>][] = [
    ['in-memory state', resetInMemoryState],
    ['session storage', () => sessionStorage.clear()],
    ['local storage', clearLocalStorage],
    ['localforage database', clearFilesStore],
    ['caches', clearCaches],
    ['kv database', clearKVDatabase],
  ];
  for (const [name, step] of steps) {
    try {
      await step();
    } catch (e) {
      log.error(`Logout could not clear the ${name}`, e);
    }
  }
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

function clearLocalStorage(): void {
  const kept = new Set<string>(keysKeptOnLogout('local'));
  const keys: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key !== null && !kept.has(key)) keys.push(key);
  }
  for (const key of keys) localStorage.removeItem(key);
}

async function clearFilesStore(): Promise<void> {
  await (await filesStore()).clear();
}

async function clearCaches(): Promise<void> {
  // Cache Storage exists only in secure contexts; without it there is nothing to delete.
  if (typeof caches === 'undefined') return;
  for (const name of cachesClearedOnLogout) {
    try {
      await caches.delete(name);
    } catch (e) {
      log.error(`Logout could not delete the cache ${name}`, e);
    }
  }
}

async function clearKVDatabase(): Promise<void> {
  const kept = new Map<KVKey, string>();
  for (const key of keysKeptOnLogout('kv') as KVKey[]) {
    try {
      const value = await getKV(key);
      if (value !== undefined) kept.set(key, value);
    } catch (e) {
      log.warn(`Logout drops the unreadable kv value of ${key}`, e);
    }
  }
  await deleteKVDatabase();
  for (const [key, value] of kept) await setKV(key, value);
}
