// Entry of an SRP worker thread when the server runs from source (tests, `npm run dev`): tsx's loader is
// not inherited by a worker thread on Node 20, so the worker registers it before loading work.ts. The
// built server starts its threads on dist/srp-worker.js instead (scripts/build.mjs).
import { register } from 'tsx/esm/api';

register();
const { createServer, verifyProof } = await import('./work.ts');

export { createServer, verifyProof };
