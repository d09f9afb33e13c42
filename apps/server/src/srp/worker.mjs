// Entry of an SRP worker thread. The server runs its TypeScript through tsx, whose loader a worker
// thread does not inherit on Node 20, so the worker registers it before loading work.ts.
import { register } from 'tsx/esm/api';

register();
const { createServer, verifyProof } = await import('./work.ts');

export { createServer, verifyProof };
