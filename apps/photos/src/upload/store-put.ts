// A request to the object store's signed URLs (a PUT, or the multipart completion), tried again when the store
// does not answer or answers 5xx / 429, with a growing pause; any other refusal (a 4xx: the signature, the MD5)
// fails at once. The URL carries a signature and is never logged.
import { UploadError } from './types.ts';

const ATTEMPTS = 3;

export async function putWithRetries(
  url: string,
  init: () => RequestInit,
  what: string,
  pause: (attempt: number) => Promise<void> = (attempt) =>
    new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt)),
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    let response: Response | undefined;
    try {
      response = await fetch(url, init());
    } catch {
      if (attempt >= ATTEMPTS) throw new UploadError('network', `${what}: no answer from the object store`);
    }
    if (response?.ok) return response;
    if (response && response.status < 500 && response.status !== 429) {
      throw new UploadError('server', `${what}: the object store answered ${response.status}`);
    }
    if (attempt >= ATTEMPTS) {
      throw new UploadError('server', `${what}: the object store answered ${response?.status}`);
    }
    await pause(attempt);
  }
}
