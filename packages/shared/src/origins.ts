// Where the apps find the API server and the accounts app. The API origin is the one a user stored
// through the developer settings (kv `apiOrigin`), else the build setting, else the hosted server
// (docs/protocol.md#transport). The accounts app's address comes from the build setting alone.
import { buildAccountsAppOrigin, buildApiOrigin } from './config.ts';
import { removeKV, savedKV, saveKV } from './storage/kv.ts';

/** Why a candidate API origin was refused. */
export type ApiOriginProblem = 'invalidURL' | 'unreachable' | 'notAServer';

export class ApiOriginError extends Error {
  constructor(
    readonly problem: ApiOriginProblem,
    options?: { cause?: unknown },
  ) {
    super(`Refused API origin: ${problem}`, options);
    this.name = 'ApiOriginError';
  }
}

/** The origin every API request goes to. */
export async function apiOrigin(): Promise<string> {
  return (await savedApiOrigin()) ?? buildApiOrigin;
}

/** The origin stored through the developer settings, if any. */
export function savedApiOrigin(): Promise<string | undefined> {
  return savedKV('apiOrigin');
}

/**
 * Stores a new API origin after checking that it is an http(s) URL whose `GET /ping` answers
 * `{"message":"pong"}`; `undefined` or an empty string removes the stored one (back to the default).
 * Throws ApiOriginError and stores nothing when the check fails.
 */
export async function saveApiOrigin(origin: string | undefined): Promise<void> {
  const candidate = origin?.trim();
  if (!candidate) {
    await removeKV('apiOrigin');
    return;
  }
  const normalised = normaliseApiOrigin(candidate);
  // Loaded on demand: the HTTP client (and zod) is not part of the login page's first
  // load, and http.ts itself depends on this module for the origin of every request.
  const [{ getJSON, ResponseShapeError }, { pingResponseSchema }] = await Promise.all([
    import('./http.ts'),
    import('@ente/protocol/ping.ts'),
  ]);
  try {
    await getJSON(`${normalised}/ping`, pingResponseSchema);
  } catch (e) {
    throw new ApiOriginError(e instanceof ResponseShapeError ? 'notAServer' : 'unreachable', { cause: e });
  }
  await saveKV('apiOrigin', normalised);
}

/** The address of the accounts app (used for passkeys). */
export function accountsAppOrigin(): string {
  return buildAccountsAppOrigin;
}

/**
 * Whether the developer settings may change the API origin on this host: never on the hosted apps
 * (hostnames ending in .ente.com, .ente.io or .ente.sh), so a tricked user cannot point them elsewhere.
 */
export function canChangeApiOrigin(hostname: string): boolean {
  return !/\.ente\.(com|io|sh)$/i.test(hostname);
}

/**
 * Accepts `http(s)://host[:port][/path]` (a path allows servers mounted under a prefix) and returns it
 * without trailing slashes; anything else (other schemes, credentials, query, fragment) is invalid.
 */
export function normaliseApiOrigin(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch (e) {
    throw new ApiOriginError('invalidURL', { cause: e });
  }
  const valid =
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    !url.username &&
    !url.password &&
    !url.search &&
    !url.hash;
  if (!valid) throw new ApiOriginError('invalidURL');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
