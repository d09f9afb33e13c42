// For the tests of media.ts: a media worker (the global Worker replaced) that answers every call with a small
// JPEG-looking Blob and records the URLs it was asked for, and object URLs that are plain counters.
import { jest } from '@jest/globals';

/** Installs the worker and the object URLs; returns the list of URLs the worker is asked for. */
export function answeringWorker(): string[] {
  const asked: string[] = [];
  const worker = jest.fn((..._args: unknown[]) => {
    let listener: ((event: { data: unknown }) => void) | undefined;
    return {
      addEventListener: (type: string, given: (event: { data: unknown }) => void) => {
        if (type === 'message') listener = given;
      },
      postMessage: ({ id, args }: { id: number; args: { url: string } }) => {
        asked.push(args.url);
        const value = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])]);
        queueMicrotask(() => listener?.({ data: { id, ok: true, value } }));
      },
      terminate: jest.fn(),
    };
  });
  let made = 0;
  Object.assign(globalThis, { Worker: worker });
  Object.assign(URL, { createObjectURL: () => `blob:test/${++made}`, revokeObjectURL: () => undefined });
  return asked;
}
