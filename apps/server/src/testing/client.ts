// A small HTTP client for the integration tests, speaking to a server the way the web client does:
// X-Client-Package on every request, the token in X-Auth-Token, and JSON bodies sent as text/plain
// (what fetch does with a string body).

export interface ApiResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests check answers field by field
  body: any;
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

  async call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
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
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  get(path: string, options?: CallOptions) {
    return this.call('GET', path, options);
  }
  post(path: string, body?: unknown, options?: CallOptions) {
    return this.call('POST', path, { ...options, body });
  }
  put(path: string, body?: unknown, options?: CallOptions) {
    return this.call('PUT', path, { ...options, body });
  }
  delete(path: string, options?: CallOptions) {
    return this.call('DELETE', path, options);
  }

  /** A client for the same server speaking as another app. */
  as(clientPackage: string): ApiClient {
    return new ApiClient(this.baseUrl, clientPackage);
  }
}
