// The media worker's entry: one per tab, created by media.ts on the first thumbnail or original and ended at
// logout. It opens with @ente/crypto's open.ts and never loads libsodium (media-job.ts).
import { serveWorkerMethods } from '../upload/worker-rpc.ts';
import { createMediaJob } from './media-job.ts';

serveWorkerMethods(self as unknown as Parameters<typeof serveWorkerMethods>[0], createMediaJob(), (value) =>
  value instanceof ReadableStream ? [value] : [],
);
