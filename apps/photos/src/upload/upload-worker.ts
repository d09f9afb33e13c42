// The upload worker's entry: one worker per file being uploaded, created by worker-client.ts with
// `new Worker(new URL('./upload-worker.ts', import.meta.url), { type: 'module' })`, ended once its file is
// done. The root @ente/crypto (libsodium, hash-wasm), exifreader and libheif load here, never on a page.
import { decodeHeif } from '@ente/shared/media/heif.ts';

import { createFileJob } from './file-job.ts';
import { registerImageDecoder } from './thumbnail.ts';
import { serveWorkerMethods } from './worker-rpc.ts';

registerImageDecoder(decodeHeif);
// Progress a few times a second: the upload panel re-renders at each report, and files report every 4 MiB.
serveWorkerMethods(self as unknown as Parameters<typeof serveWorkerMethods>[0], createFileJob(), undefined, {
  progressEveryMs: 250,
});
