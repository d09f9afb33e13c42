// The cast screen's HEIC converter: a worker started (by heif-convert.ts) the first time a slide is HEIF the
// browser cannot decode; libheif, from heic-to, loads in it on the first picture and decodes it to a JPEG, so
// neither its code nor its work is ever on the page's thread. Nothing is logged.
import { heifToJpeg } from '@ente/shared/media/heif.ts';

import type { HeifReply, HeifRequest } from './heif-convert.ts';

const reply = (message: HeifReply) => self.postMessage(message);

self.addEventListener('message', (event: MessageEvent<HeifRequest>) => {
  const { id, bytes } = event.data;
  heifToJpeg(new Blob([bytes])).then(
    (jpeg) => reply({ id, jpeg }),
    (error: unknown) => reply({ id, error: error instanceof Error ? error.message : 'HEIF conversion failed' }),
  );
});
