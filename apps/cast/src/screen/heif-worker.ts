// The cast screen's HEIC converter: a worker started (by heif-convert.ts) the first time a slide is HEIF; a picture
// the browser decodes (Safari) is handed back as it is, else libheif (WebAssembly) loads here on the first one and
// decodes it to a JPEG, so neither its code nor its work is ever on the page's thread. Nothing is logged.
import { displayableOriginal } from '@ente/shared/media/heif.ts';

import type { HeifReply, HeifRequest } from './heif-convert.ts';

const reply = (message: HeifReply) => self.postMessage(message);

self.addEventListener('message', (event: MessageEvent<HeifRequest>) => {
  const { id, bytes } = event.data;
  displayableOriginal(new Blob([bytes])).then(
    (image) => reply({ id, image }),
    (error: unknown) => reply({ id, error: error instanceof Error ? error.message : 'HEIF conversion failed' }),
  );
});
