// The main thread's handle on one upload worker (upload-worker.ts). The queue's pool (worker-pool.ts) starts
// them and hands each to file after file; ending one (a cancelled file, an idle queue, logout) also frees its
// memory and its OPFS handles.
import type { FileJob } from './file-job.ts';
import { connectWorker, type WorkerConnection } from './worker-rpc.ts';

export type UploadWorker = WorkerConnection<FileJob>;

export function startUploadWorker(): UploadWorker {
  const worker = new Worker(new URL('./upload-worker.ts', import.meta.url), { type: 'module', name: 'ente-upload' });
  return connectWorker<FileJob>(worker);
}
