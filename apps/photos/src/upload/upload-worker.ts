// The upload worker's entry, created by worker-client.ts with
// `new Worker(new URL('./upload-worker.ts', import.meta.url), { type: 'module' })` for the queue's pool, which hands
// it file after file (worker-pool.ts). The root @ente/crypto (libsodium, hash-wasm), exifreader and libheif load
// here, once per worker, never on a page.
import { decodeHeif } from '@ente/shared/media/heif.ts';

import { createFileJob } from './file-job.ts';
import { registerImageDecoder } from './thumbnail.ts';
import { serveWorkerMethods } from './worker-rpc.ts';

registerImageDecoder(decodeHeif);
// Progress a few times a second: the upload panel re-renders at each report, and files report every 4 MiB.
serveWorkerMethods(self as unknown as Parameters<typeof serveWorkerMethods>[0], createFileJob(), undefined, {
  progressEveryMs: 250,
});
