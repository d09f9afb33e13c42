// The import worker: detects and reads a file of another app (detect.ts) off the UI thread, scrypt and
// PBKDF2 included. Argon2id and secretstream are asked of the page's crypto worker through `crypto`, a
// comlink proxy read.ts passes in.
import { expose } from 'comlink';

import { parseImport } from './detect.ts';
import { outcomeOf, type ImportOutcome } from './outcome.ts';
import type { ImportCrypto } from './types.ts';

/** What the worker offers (the comlink endpoint). */
export interface ImportWorkerAPI {
  read(content: string | Uint8Array, password: string | undefined, crypto: ImportCrypto): Promise<ImportOutcome>;
}

const api: ImportWorkerAPI = {
  read: (content, password, crypto) => outcomeOf(() => parseImport(content, { password, crypto })),
};

expose(api);
