// The cast routes the screen calls (docs/protocol.md#cast), with plain fetch: the screen has no account, so none
// of the shell's signed-in request handling (its token, its 401 logout) applies.
import {
  castDataResponseSchema,
  castDiffResponseSchema,
  registerCastDeviceResponseSchema,
  type CastDiffResponse,
} from '@ente/protocol';
import { readAtMost } from '@ente/shared/media/read-at-most.ts';
import { apiOrigin } from '@ente/shared/origins.ts';

/** A cast route answered something else than 2xx (`status`), or nothing at all (`status` 0). */
export class CastHttpError extends Error {
  constructor(readonly status: number) {
    super(status === 0 ? 'cast request failed' : `cast request answered ${String(status)}`);
    this.name = 'CastHttpError';
  }
}

/** A file's bytes went past the most the screen reads of it (the rest was not read). */
class CastFileTooLargeError extends Error {
  constructor(limit: number) {
    super(`a cast file past ${String(limit)} bytes`);
    this.name = 'CastFileTooLargeError';
  }
}

const castHeaders = { 'X-Client-Package': 'io.ente.cast.web' };

async function request(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal | undefined } = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${await apiOrigin()}${path}`, {
      ...init,
      headers: { ...castHeaders, ...init.headers },
      cache: 'no-store',
    });
  } catch {
    throw new CastHttpError(0);
  }
  if (!response.ok) throw new CastHttpError(response.status);
  return response;
}

/** POST /cast/device-info: the code that the screen shows. */
export async function registerScreen(publicKey: string): Promise<string> {
  const response = await request('/cast/device-info', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ publicKey }),
  });
  return registerCastDeviceResponseSchema.parse(await response.json()).deviceCode;
}

/** GET /cast/cast-data/:code: the sealed payload once a sender paired, else null; a gone code is a 404. */
export async function pollCastData(code: string): Promise<string | null> {
  const response = await request(`/cast/cast-data/${encodeURIComponent(code)}`);
  return castDataResponseSchema.parse(await response.json()).encCastData;
}

/** One page of the album's diff since `sinceTime` (µs). */
export async function castDiff(castToken: string, sinceTime: number, signal?: AbortSignal): Promise<CastDiffResponse> {
  const response = await request(`/cast/diff?sinceTime=${String(sinceTime)}`, {
    headers: { 'X-Cast-Access-Token': castToken },
    signal,
  });
  return castDiffResponseSchema.parse(await response.json());
}

/**
 * A file's encrypted bytes: its thumbnail (`preview`) or its original (`download`), the token in the query; at most
 * `limit` bytes are read (the server and the album's other uploaders are not trusted with the screen's memory).
 */
export async function castFileBytes(
  castToken: string,
  id: number,
  kind: 'preview' | 'download',
  limit: number,
  signal?: AbortSignal,
): Promise<Uint8Array<ArrayBuffer>> {
  const query = new URLSearchParams({ castToken });
  const response = await request(`/cast/files/${kind}/${String(id)}?${query.toString()}`, { signal });
  if (!response.body) return new Uint8Array();
  return readAtMost(response.body, limit, () => new CastFileTooLargeError(limit));
}
