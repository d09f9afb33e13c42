// Finds QR codes in an image with zxing-wasm (ZXing-C++ compiled to WebAssembly) and returns their text.
// It runs inside the QR worker (qr-decode.worker.ts) in browsers, and in-process in Node and tests
// (qr-decode.ts picks). See: [Note: Where the QR reader's wasm comes from]
//
// [Note: Where the QR reader's wasm comes from]
// zxing-wasm fetches its .wasm from a public CDN unless told otherwise; our Content-Security-Policy
// (and our users' privacy) allow only our own origin. `new URL('zxing-wasm/reader/zxing_reader.wasm',
// import.meta.url)` makes webpack emit the package's wasm as a static asset of the app and gives its
// URL, which `locateFile` hands to the Emscripten loader. Outside a bundler (Node, jest) that URL points
// nowhere, so tests hand the bytes over with `provideQRReaderWasm`.
import type * as ZXingReader from 'zxing-wasm/reader';
import type { ReaderOptions } from 'zxing-wasm/reader';

import { Failure } from '@ente/shared/failure.ts';

/** The reader's options: QR codes only, as many as an image holds, trying hard (photos, screenshots). */
const readerOptions: ReaderOptions = {
  formats: ['QRCode', 'MicroQRCode'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: true,
  tryDownscale: true,
  maxNumberOfSymbols: 32,
};

/** Why an image gave no text (a translation key of the `codes` namespace, section `editor`). */
export class QRReadError extends Failure<`codes:${QRReadErrorKey}`> {
  constructor(readonly errorKey: QRReadErrorKey) {
    // The key is the message too, so that the error keeps its meaning across the worker boundary.
    super(`codes:${errorKey}`, { message: errorKey });
    this.name = 'QRReadError';
  }
}

export type QRReadErrorKey = 'editor.qr_none' | 'editor.qr_unreadable';

/** The QRReadError an error stands for, also after comlink turned it into a plain Error. */
export function asQRReadError(e: unknown): QRReadError | undefined {
  if (e instanceof QRReadError) return e;
  if (!(e instanceof Error) || e.name !== 'QRReadError') return undefined;
  return e.message === 'editor.qr_none' || e.message === 'editor.qr_unreadable'
    ? new QRReadError(e.message)
    : undefined;
}

let wasmBinary: ArrayBuffer | undefined;
let prepared: Promise<typeof ZXingReader> | undefined;

/** For Node and tests: use these bytes of `zxing_reader.wasm` instead of fetching the app's asset. */
export function provideQRReaderWasm(binary: ArrayBuffer): void {
  wasmBinary = binary;
  prepared = undefined;
}

function reader(): Promise<typeof ZXingReader> {
  prepared ??= import('zxing-wasm/reader').then((zxing) => {
    if (wasmBinary) {
      zxing.prepareZXingModule({ overrides: { wasmBinary } });
    } else {
      const wasmURL = new URL('zxing-wasm/reader/zxing_reader.wasm', import.meta.url).href;
      zxing.prepareZXingModule({
        overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmURL : prefix + path) },
      });
    }
    return zxing;
  });
  prepared.catch(() => (prepared = undefined));
  return prepared;
}

/**
 * The texts of the QR codes in an image (PNG, JPEG, GIF, BMP; in a browser also any format it can
 * draw, such as WebP), in the order found, without repeats. Throws `QRReadError`: `editor.qr_none` when
 * the image holds no readable QR code, `editor.qr_unreadable` when it is not an image at all.
 */
export async function readQRTexts(image: Blob | ArrayBuffer | Uint8Array): Promise<string[]> {
  const zxing = await reader();
  const bytes = image instanceof Blob ? new Uint8Array(await image.arrayBuffer()) : new Uint8Array(image);
  let results = await zxing.readBarcodes(bytes, readerOptions);
  if (results.some((result) => !result.isValid && result.error.startsWith('Failed to load image'))) {
    // The built-in decoder knows PNG, JPEG, GIF and BMP; let the browser draw anything else.
    const pixels = await drawnPixels(image instanceof Blob ? image : new Blob([bytes]));
    if (!pixels) throw new QRReadError('editor.qr_unreadable');
    results = await zxing.readBarcodes(pixels, readerOptions);
  }
  const texts = [...new Set(results.filter((result) => result.isValid && result.text).map((result) => result.text))];
  if (texts.length === 0) throw new QRReadError('editor.qr_none');
  return texts;
}

/** The pixels of an image the browser can decode (in a worker or a page), or undefined. */
async function drawnPixels(image: Blob): Promise<ImageData | undefined> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas === 'undefined') return undefined;
  try {
    const bitmap = await createImageBitmap(image);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    if (!context) return undefined;
    context.drawImage(bitmap, 0, 0);
    bitmap.close();
    return context.getImageData(0, 0, canvas.width, canvas.height);
  } catch {
    return undefined;
  }
}
