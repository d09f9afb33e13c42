// Whether someone is signed in, and the auth token and user id that requests use. The user record
// lives in local storage (`user`, written by local-storage.ts) and its token and id are mirrored into
// the kv database, where requests read them. A token in local storage that is missing from kv means
// the two have drifted apart; savedAuthToken raises TokenMirrorError rather than guessing.
import { savedKV } from './kv.ts';
import { savedUser } from './local-storage.ts';

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

/**
 * The token for authenticated requests, read from kv. Undefined when signed out; throws TokenMirrorError
 * when local storage has a token that kv lacks.
 */
export async function savedAuthToken(): Promise<string | undefined> {
  const token = await savedKV('token');
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
  const id = await savedKV('userID');
  return id === undefined ? undefined : Number(id);
}
