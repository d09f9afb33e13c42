// The stored user record (local storage `user`, protocol §10.1) and its mirror in the kv database:
// the token and the numeric id are copied to kv `token` and `userID` (as a string), and kv `token` is
// what authenticated requests send. A token in local storage that is missing from kv means the two
// have drifted apart; savedAuthToken raises TokenMirrorError rather than guessing.
import { getKV, removeKV, setKV } from './kv.ts';
import { readStoredJSON } from './local-storage.ts';
import type { UserRecord } from './registry.ts';

export type { UserRecord } from './registry.ts';

export class TokenMirrorError extends Error {
  constructor() {
    super('The auth token is in local storage but missing from the kv database');
    this.name = 'TokenMirrorError';
  }
}

/** The request needs a session, and there is none. */
export class TokenMissingError extends Error {
  constructor() {
    super('token missing');
    this.name = 'TokenMissingError';
  }
}

/** True when the stored user record has an id, an e-mail and a token (synchronous, for routing). */
export function isLoggedIn(): boolean {
  const user = savedUser();
  return user?.id !== undefined && !!user.email && !!user.token;
}

export function savedUser(): UserRecord | undefined {
  return readStoredJSON(localStorage, 'user');
}

/**
 * Replaces the stored user record and updates the kv mirror. The mirror is written first: if the
 * local-storage write then fails, no token is left in local storage without its kv copy.
 */
export async function saveUser(user: UserRecord): Promise<void> {
  await (user.token ? setKV('token', user.token) : removeKV('token'));
  await (user.id !== undefined ? setKV('userID', String(user.id)) : removeKV('userID'));
  localStorage.setItem('user', JSON.stringify(user));
}

/** Merges fields into the stored user record (e.g. during login, when it is built up step by step). */
export async function updateSavedUser(fields: Partial<UserRecord>): Promise<void> {
  await saveUser({ ...savedUser(), ...fields });
}

/** Removes the user record and its mirror. */
export async function removeSavedUser(): Promise<void> {
  localStorage.removeItem('user');
  await removeKV('token');
  await removeKV('userID');
}

/**
 * The token for authenticated requests, read from kv. Undefined when signed out; throws TokenMirrorError
 * when local storage has a token that kv lacks.
 */
export async function savedAuthToken(): Promise<string | undefined> {
  const token = await getKV('token');
  if (token === undefined && savedUser()?.token) throw new TokenMirrorError();
  return token;
}

/** Like savedAuthToken, but a missing token is a TokenMissingError. */
export async function ensureAuthToken(): Promise<string> {
  const token = await savedAuthToken();
  if (token === undefined) throw new TokenMissingError();
  return token;
}

/** The user's numeric id from the kv mirror. */
export async function savedUserID(): Promise<number | undefined> {
  const id = await getKV('userID');
  return id === undefined ? undefined : Number(id);
}
