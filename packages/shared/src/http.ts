// The HTTP client of every app (axios). Requests go to the API origin (origins.ts) with a JSON content
// type and X-Client-Package; authenticated ones also carry X-Auth-Token (read from kv). Failures become
// the errors of docs/product.md#errors (see: [Note: HTTP errors]) and answers are parsed with a zod
// schema where they arrive. Every request is tracked until it settles, so that logout can wait for the
// ones in flight.
//
// [Note: HTTP errors]
// - A response whose body has `code` and `message` → ApiError(message, errCode, httpStatus), any status.
// - Any other 4xx → ClientError ("client error"); any other status → ServerError ("server error"). Both
//   keep the status and, if the body was a middleware error `{error}`, its text in `detail`.
// - No response at all (offline, DNS, CORS) → logged, then NetworkError ("Network Error").
// - A cancelled request → RequestCanceledError; an answer of the wrong shape → ResponseShapeError.
// errors.ts maps each of them to an error identifier of the catalogue, which pages show translated.
import axios, { isAxiosError, isCancel, type AxiosError, type Method } from 'axios';
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
  /** Query parameters; undefined values are left out. */
  params?: Record<string, string | number | boolean | undefined>;
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

// The promises handed to callers, so that logout can wait for them: a caller's own continuation (which
// may write storage) was attached before logout starts waiting, so it runs first.
const inFlight = new Set<Promise<unknown>>();

function tracked<T>(pending: Promise<T>): Promise<T> {
  inFlight.add(pending);
  const forget = () => inFlight.delete(pending);
  void pending.then(forget, forget);
  return pending;
}

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

const client = axios.create({ headers: { 'Content-Type': 'application/json' } });

/**
 * Sends one request and returns the body of its 2xx answer. `path` is relative to the API origin, or an
 * absolute URL (used to check a candidate origin before saving it).
 */
async function send(method: Method, path: string, body: unknown, options: RequestOptions = {}): Promise<unknown> {
  const headers: Record<string, string> = { 'X-Client-Package': clientPackage() };
  if (options.token !== undefined) headers['X-Auth-Token'] = options.token;
  else if (options.auth) headers['X-Auth-Token'] = await ensureAuthToken();
  try {
    const response = await client.request<unknown>({
      method,
      url: path,
      baseURL: await apiOrigin(),
      headers,
      data: body,
      params: options.params,
      signal: options.signal,
    });
    return response.data;
  } catch (e) {
    throw toRequestError(e, `${method} ${path}`);
  }
}

function parse<S extends $ZodType>(schema: S, data: unknown, description: string): output<S> {
  const parsed = safeParse(schema, data);
  if (parsed.success) return parsed.data;
  const error = new ResponseShapeError(description, parsed.error);
  log.error('An HTTP answer did not match its schema', error);
  throw error;
}

function toRequestError(e: unknown, description: string): unknown {
  if (isCancel(e)) return new RequestCanceledError();
  if (!isAxiosError(e)) return e;
  const response = e.response;
  if (!response) {
    log.error(`${description} failed without a response`, `${e.code ?? 'no code'}: ${e.message}`);
    return new NetworkError();
  }
  const status = response.status;
  log.warn(`${description} failed with status ${status}`, requestID(e));
  const typed = typedErrorBodySchema.safeParse(response.data);
  if (typed.success) return new ApiError(typed.data.message, typed.data.code, status);
  const middleware = middlewareErrorBodySchema.safeParse(response.data);
  const detail = middleware.success ? middleware.data.error : undefined;
  return status >= 400 && status < 500 ? new ClientError(status, detail) : new ServerError(status, detail);
}

/** The server's X-Request-Id, which lets an operator find the request in the server log. */
function requestID(e: AxiosError): string | undefined {
  const id: unknown = e.response?.headers['x-request-id'];
  return typeof id === 'string' ? `request id ${id}` : undefined;
}
