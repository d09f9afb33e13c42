// The HTTP client of every app, on the browser's fetch. Requests go to the API origin (origins.ts) with
// X-Client-Package, and JSON bodies with a JSON content type; authenticated ones also carry X-Auth-Token
// (read from kv). Failures become the errors of docs/product.md#errors (see: [Note: HTTP errors]) and
// answers are parsed with a zod schema where they arrive. Every request is tracked until it settles, so
// that logout can wait for the ones in flight.
//
// [Note: HTTP errors]
// - A response whose body has `code` and `message` → ApiError(message, errCode, httpStatus), any status.
// - Any other 4xx → ClientError ("client error"); any other status → ServerError ("server error"). Both
//   keep the status and, if the body was a middleware error `{error}`, its text in `detail`.
// - No response at all (offline, DNS, CORS) → logged, then NetworkError ("Network Error").
// - A cancelled request → RequestCanceledError; an answer of the wrong shape → ResponseShapeError.
// - A 401 with a middleware body `{error}` to an authenticated request (`auth: true`) is also reported to
//   the onUnauthorized listeners (the token is no longer valid: the session ended elsewhere), once per
//   request, before the request rejects. A plain 401 `{}` is a wrong code or proof, not an ended session.
// errors.ts maps each of them to an error identifier of the catalogue, which pages show translated.
import { safeParse, type $ZodType, type output } from 'zod/v4/core';

import { middlewareErrorBodySchema, typedErrorBodySchema } from '@ente/protocol/errors.ts';

import { clientPackage } from './app-name.ts';
import { log } from './log.ts';
import { apiOrigin } from './origins.ts';
import { ensureAuthToken } from './storage/user.ts';

export interface RequestOptions {
  /** Send X-Auth-Token (the stored token); throws TokenMissingError when signed out. Default false. */
  auth?: boolean;
  /** Send this token as X-Auth-Token instead of the stored one (e.g. a token not saved yet). */
  token?: string;
  /**
   * Send this X-Client-Package instead of this app's: the accounts app finishing a passkey sign-in asks
   * for a token of the app that sent the person there.
   */
  clientPackage?: string;
  /** Query parameters; undefined values are left out. */
  params?: Record<string, string | number | boolean | undefined>;
  /** Further headers (a public link's access tokens, docs/protocol.md#public-links). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly errCode: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export class ClientError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly detail?: string,
  ) {
    super('client error');
    this.name = 'ClientError';
  }
}

export class ServerError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly detail?: string,
  ) {
    super('server error');
    this.name = 'ServerError';
  }
}

export class NetworkError extends Error {
  constructor() {
    super('Network Error');
    this.name = 'NetworkError';
  }
}

export class RequestCanceledError extends Error {
  constructor() {
    super('request canceled');
    this.name = 'RequestCanceledError';
  }
}

export class ResponseShapeError extends Error {
  constructor(description: string, cause: unknown) {
    super(`Unexpected answer to ${description}`, { cause });
    this.name = 'ResponseShapeError';
  }
}

export function getJSON<S extends $ZodType>(path: string, schema: S, options?: RequestOptions): Promise<output<S>> {
  return tracked(requestJSON('GET', path, undefined, schema, options));
}

export function postJSON<S extends $ZodType>(
  path: string,
  body: unknown,
  schema: S,
  options?: RequestOptions,
): Promise<output<S>> {
  return tracked(requestJSON('POST', path, body, schema, options));
}

export function putJSON<S extends $ZodType>(
  path: string,
  body: unknown,
  schema: S,
  options?: RequestOptions,
): Promise<output<S>> {
  return tracked(requestJSON('PUT', path, body, schema, options));
}

/** A POST whose answer is not used (any 2xx body is accepted). */
export function post(path: string, body?: unknown, options?: RequestOptions): Promise<void> {
  return tracked(request('POST', path, body, options));
}

/** A PUT whose answer is not used (any 2xx body is accepted). */
export function put(path: string, body?: unknown, options?: RequestOptions): Promise<void> {
  return tracked(request('PUT', path, body, options));
}

/** A PATCH whose answer is not used (any 2xx body is accepted). */
export function patch(path: string, body?: unknown, options?: RequestOptions): Promise<void> {
  return tracked(request('PATCH', path, body, options));
}

/** A DELETE whose answer is not used (any 2xx body is accepted). */
export function del(path: string, options?: RequestOptions): Promise<void> {
  return tracked(request('DELETE', path, undefined, options));
}

/** How many requests are in flight. */
export function requestsInFlight(): number {
  return inFlight.size;
}

/**
 * Resolves when every request in flight now has settled, or after `boundMs`, whichever comes first.
 * Logout uses it to let late answers land before it clears storage a second time.
 */
export async function requestsSettled(boundMs: number): Promise<void> {
  if (inFlight.size === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, boundMs);
  });
  await Promise.race([Promise.allSettled([...inFlight]), bound]);
  clearTimeout(timer);
}

/** What an onUnauthorized listener learns about the request that got 401. */
export interface UnauthorizedRequest {
  method: string;
  path: string;
}

/**
 * Calls `listener` whenever an authenticated request (`auth: true`) gets a 401 from the token check (a
 * middleware body `{error}`, docs/protocol.md#errors), once per request, before the request rejects: the
 * session has ended elsewhere. A plain 401 (a wrong code or proof) is not reported. Returns the function that removes the listener.
 */
export function onUnauthorized(listener: (request: UnauthorizedRequest) => void): () => void {
  const entry = { listener };
  unauthorizedListeners.add(entry);
  return () => void unauthorizedListeners.delete(entry);
}

// Each subscription is its own entry, so that the same function subscribed twice is called twice and
// unsubscribing one leaves the other.
const unauthorizedListeners = new Set<{ listener: (request: UnauthorizedRequest) => void }>();

function reportUnauthorized(request: UnauthorizedRequest): void {
  for (const { listener } of [...unauthorizedListeners]) {
    try {
      listener(request);
    } catch (e) {
      log.error('An onUnauthorized listener failed', e);
    }
  }
}

// The promises handed to callers, so that logout can wait for them: a caller's own continuation (which
// may write storage) was attached before logout starts waiting, so it runs first.
const inFlight = new Set<Promise<unknown>>();

function tracked<T>(pending: Promise<T>): Promise<T> {
  inFlight.add(pending);
  const forget = () => inFlight.delete(pending);
  void pending.then(forget, forget);
  return pending;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function requestJSON<S extends $ZodType>(
  method: Method,
  path: string,
  body: unknown,
  schema: S,
  options?: RequestOptions,
): Promise<output<S>> {
  return parse(schema, await send(method, path, body, options), `${method} ${path}`);
}

async function request(method: Method, path: string, body: unknown, options?: RequestOptions): Promise<void> {
  await send(method, path, body, options);
}

/**
 * Sends one request and returns the body of its 2xx answer: parsed JSON, the text itself if it is not
 * JSON, or undefined if it is empty. `path` is relative to the API origin, or an absolute URL (used to
 * check a candidate origin before saving it).
 */
async function send(method: Method, path: string, body: unknown, options: RequestOptions = {}): Promise<unknown> {
  const description = `${method} ${path}`;
  const headers: Record<string, string> = {
    ...options.headers,
    'X-Client-Package': options.clientPackage ?? clientPackage(),
  };
  if (options.token !== undefined) headers['X-Auth-Token'] = options.token;
  else if (options.auth) headers['X-Auth-Token'] = await ensureAuthToken();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const url = requestURL(await apiOrigin(), path, options.params);

  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
    text = await response.text();
  } catch (e) {
    if (options.signal?.aborted) throw new RequestCanceledError();
    log.error(`${description} failed without a response`, e);
    throw new NetworkError();
  }

  const data = parseBody(text);
  if (response.ok) return data;
  const status = response.status;
  const requestID = response.headers.get('X-Request-Id');
  log.warn(`${description} failed with status ${status}`, requestID ? `request id ${requestID}` : undefined);
  if (status === 401 && options.auth && isMiddlewareErrorBody(data)) reportUnauthorized({ method, path });
  throw toRequestError(status, data);
}

/**
 * The URL of a request: an absolute `path` as it is, otherwise `path` appended to the origin (which
 * may have a path of its own: a server mounted under a prefix). Query parameters whose value is
 * undefined are left out; any fragment is dropped.
 */
function requestURL(origin: string, path: string, params: RequestOptions['params'] = {}): string {
  let url = /^([a-z][a-z\d+.-]*:)?\/\//i.test(path)
    ? path
    : `${origin.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  url = url.split('#')[0] ?? url;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, String(value));
  const search = query.toString();
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
}

/** A body as JSON when it is JSON, as the text otherwise; an empty body is undefined. */
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function parse<S extends $ZodType>(schema: S, data: unknown, description: string): output<S> {
  const parsed = safeParse(schema, data);
  if (parsed.success) return parsed.data;
  const error = new ResponseShapeError(description, parsed.error);
  log.error('An HTTP answer did not match its schema', error);
  throw error;
}

/** The error of a non-2xx answer (see: [Note: HTTP errors]). */
function toRequestError(status: number, data: unknown): Error {
  const typed = safeParse(typedErrorBodySchema, data);
  if (typed.success) return new ApiError(typed.data.message, typed.data.code, status);
  const middleware = safeParse(middlewareErrorBodySchema, data);
  const detail = middleware.success ? middleware.data.error : undefined;
  return status >= 400 && status < 500 ? new ClientError(status, detail) : new ServerError(status, detail);
}

/** The token check's refusal `{error: "<text>"}` (docs/protocol.md#errors). */
function isMiddlewareErrorBody(data: unknown): boolean {
  return typeof data === 'object' && data !== null && typeof (data as { error?: unknown }).error === 'string';
}
