// The QR worker: reads QR codes from images (qr-reader.ts) off the UI thread. Its one method is reached
// through comlink from qr-decode.ts.
import { expose } from 'comlink';

import { readQRTexts } from './qr-reader.ts';

/** What the worker offers (the comlink endpoint). */
export interface QRWorkerAPI {
  readQRTexts(image: Blob): Promise<string[]>;
}

const api: QRWorkerAPI = { readQRTexts };

expose(api);
