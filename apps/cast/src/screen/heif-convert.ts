// HEIC slides (loaded with import() by slide-loader.ts the first time a slide is an ISO BMFF file, so none of it is
// in the page's first load): a picture told HEIF by its `ftyp` box goes to heif-worker.ts (one worker per page,
// started on the first such picture), which converts it to JPEG unless the browser decodes it as it is.
import { HEIF_SNIFF_BYTES, isHeifHeader } from '@ente/shared/media/heif.ts';

export type HeifRequest = { id: number; bytes: Uint8Array<ArrayBuffer> };
export type HeifReply = { id: number; image: Blob } | { id: number; error: string };

let worker: Worker | undefined;
let lastID = 0;
const waiting = new Map<number, (reply: HeifReply) => void>();

function heifWorker(): Worker {
  if (!worker) {
    const started = new Worker(new URL('./heif-worker.ts', import.meta.url), {
      type: 'module',
      name: 'ente-cast-heif',
    });
    started.addEventListener('message', (event: MessageEvent<HeifReply>) => {
      waiting.get(event.data.id)?.(event.data);
      waiting.delete(event.data.id);
    });
    // A dead worker fails what it was given and is started again for the next picture.
    started.addEventListener('error', () => {
      if (worker === started) worker = undefined;
      for (const [id, settle] of waiting) settle({ id, error: 'the HEIF worker stopped' });
      waiting.clear();
    });
    worker = started;
  }
  return worker;
}

/** Whether these bytes are a HEIC/HEIF picture (its first bytes). */
export function isHeifPicture(bytes: Uint8Array): boolean {
  return isHeifHeader(bytes.subarray(0, HEIF_SNIFF_BYTES));
}

/** The HEIF picture `bytes` (handed over to the worker: unusable here afterwards) as the browser can show it. */
export function displayableHeif(bytes: Uint8Array<ArrayBuffer>, signal: AbortSignal): Promise<Blob> {
  lastID += 1;
  const id = lastID;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      waiting.delete(id);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    waiting.set(id, (reply) => {
      signal.removeEventListener('abort', onAbort);
      if ('image' in reply) resolve(reply.image);
      else reject(new Error(reply.error));
    });
    heifWorker().postMessage({ id, bytes } satisfies HeifRequest, [bytes.buffer]);
  });
}
