// A small HTTP client for the integration tests, speaking to a server the way the web client does:
// X-Client-Package on every request, the token in X-Auth-Token, and JSON bodies sent as text/plain
// (what fetch does with a string body).

/** The fields of the error shapes (docs/protocol.md#errors), which any answer may turn out to be. */
export interface ErrorFields {
  code?: string;
  message?: string;
  error?: string;
}

/**
 * An answer's JSON before a test names its type: every field unknown (besides the error fields every
 * answer has). A test expecting a success names the protocol's response type instead, e.g.
 * `api.get<SessionsResponse>(…)`.
 */
export type AnyBody = Readonly<Record<string, unknown>>;

export interface ApiResponse<Body = AnyBody> {
  status: number;
  /** The parsed JSON (undefined for an empty or non-JSON answer), as the test says it is. */
  body: Body & ErrorFields;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is, bypassing JSON encoding (malformed-input tests). */
  rawBody?: string;
  query?: Record<string, string | number | undefined>;
  token?: string | null;
  headers?: Record<string, string>;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly clientPackage: string;
  /** Sent as X-Auth-Token unless a call passes its own token (or null for none). */
  token: string | undefined;

  constructor(baseUrl: string, clientPackage = 'io.ente.auth.web') {
    this.baseUrl = baseUrl;
    this.clientPackage = clientPackage;
  }

  async call<Body = AnyBody>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<Body>> {
    const url = new URL(path, this.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { 'X-Client-Package': this.clientPackage, ...options.headers };
    const token = options.token === undefined ? this.token : options.token;
    if (token) headers['X-Auth-Token'] = token;
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed as Body & ErrorFields, text, headers: response.headers };
  }

  get<Body = AnyBody>(path: string, options?: CallOptions) {
    return this.call<Body>('GET', path, options);
  }
  post<Body = AnyBody>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<Body>('POST', path, { ...options, body });
  }
  put<Body = AnyBody>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<Body>('PUT', path, { ...options, body });
  }
  delete<Body = AnyBody>(path: string, options?: CallOptions) {
    return this.call<Body>('DELETE', path, options);
  }

  /** A client for the same server speaking as another app. */
  as(clientPackage: string): ApiClient {
    return new ApiClient(this.baseUrl, clientPackage);
  }
}
