// Reading QR codes from an image the user picked, pasted or dropped: in browsers in a Web Worker of its
// own (qr-decode.worker.ts, created on the first image), so decoding a large photo never blocks the
// page; in Node and tests in-process. Either way the work is qr-reader.ts's.
import type { QRWorkerAPI } from './qr-decode.worker.ts';
import { asQRReadError } from './qr-reader.ts';

export { QRReadError, asQRReadError, type QRReadErrorKey } from './qr-reader.ts';

interface QRWorker {
  api: QRWorkerAPI;
  /** Rejects when the worker dies (comlink would leave its calls pending for ever). */
  failed: Promise<never>;
}

let worker: Promise<QRWorker> | undefined;

/**
 * The texts of the QR codes in `image`, in the order found. Throws `QRReadError` (with its `errorKey`)
 * when the image holds no QR code or is not an image; another error when the reader itself failed.
 */
export async function decodeQRImage(image: Blob): Promise<string[]> {
  if (typeof Worker === 'undefined' || typeof window === 'undefined') {
    const { readQRTexts } = await import('./qr-reader.ts');
    return readQRTexts(image);
  }
  const { api, failed } = await qrWorker();
  try {
    return await Promise.race([api.readQRTexts(image), failed]);
  } catch (e) {
    // comlink sends errors across as plain Errors: give a read error its class back.
    throw asQRReadError(e) ?? e;
  }
}

function qrWorker(): Promise<QRWorker> {
  worker ??= (async () => {
    const { wrap } = await import('comlink');
    const instance = new Worker(new URL('./qr-decode.worker.ts', import.meta.url), {
      type: 'module',
      name: 'ente-qr',
    });
    // A worker that dies fails the image it was reading, and is replaced on the next image.
    const failed = new Promise<never>((_, reject) => {
      const fail = () => {
        worker = undefined;
        instance.terminate();
        reject(new Error('the QR reader failed'));
      };
      instance.addEventListener('error', fail);
      instance.addEventListener('messageerror', fail);
    });
    failed.catch(() => undefined);
    return { api: wrap<QRWorkerAPI>(instance), failed };
  })();
  return worker;
}
