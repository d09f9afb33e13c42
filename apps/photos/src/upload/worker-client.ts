// The main thread's handle on one upload worker (upload-worker.ts): started for one file, ended when that file
// is done, failed or cancelled (which also frees the worker's memory and its OPFS handle).
import type { FileJob } from './file-job.ts';
import { connectWorker, type WorkerConnection } from './worker-rpc.ts';

export type UploadWorker = WorkerConnection<FileJob>;

export function startUploadWorker(): UploadWorker {
  const worker = new Worker(new URL('./upload-worker.ts', import.meta.url), { type: 'module', name: 'ente-upload' });
  return connectWorker<FileJob>(worker);
}
