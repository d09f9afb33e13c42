// The upload worker's entry: one worker per file being uploaded, created by worker-client.ts with
// `new Worker(new URL('./upload-worker.ts', import.meta.url), { type: 'module' })`, ended once its file is
// done. The root @ente/crypto (libsodium, hash-wasm) and exifreader load here, never on a page.
import { createFileJob } from './file-job.ts';
import { serveWorkerMethods } from './worker-rpc.ts';

serveWorkerMethods(self as unknown as Parameters<typeof serveWorkerMethods>[0], createFileJob());
