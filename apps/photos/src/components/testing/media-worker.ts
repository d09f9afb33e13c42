// For the tests of media.ts: a media worker (the global Worker replaced) that answers a thumbnail's URL with a
// plain counter (as its object URLs), every other fetch with a small JPEG-looking Blob, records the URLs it was asked
// to fetch (and, in `requests`, each request whole), and the batches of object URLs it was asked to revoke; the page's
// object URLs are plain counters too.
import { jest } from '@jest/globals';

/** Installs the worker and the object URLs; returns the list of URLs the worker is asked for. */
export function answeringWorker(revoked: string[][] = [], requests: unknown[] = []): string[] {
  const asked: string[] = [];
  let made = 0;
  const worker = jest.fn((..._args: unknown[]) => {
    let listener: ((event: { data: unknown }) => void) | undefined;
    return {
      addEventListener: (type: string, given: (event: { data: unknown }) => void) => {
        if (type === 'message') listener = given;
      },
      postMessage: ({ id, method, args }: { id: number; method: string; args: { url: string } | string[] }) => {
        let value: unknown;
        if (method === 'revokeURLs') revoked.push(args as string[]);
        else {
          asked.push((args as { url: string }).url);
          requests.push(args);
          value =
            method === 'thumbnailURL' ? `blob:worker/${++made}` : new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])]);
        }
        queueMicrotask(() => listener?.({ data: { id, ok: true, value } }));
      },
      terminate: jest.fn(),
    };
  });
  let pageMade = 0;
  Object.assign(globalThis, { Worker: worker });
  Object.assign(URL, { createObjectURL: () => `blob:test/${++pageMade}`, revokeObjectURL: () => undefined });
  return asked;
}
