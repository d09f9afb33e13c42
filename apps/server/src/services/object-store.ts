// Opens the object store photos are kept in. Today it is always the embedded store, in the
// object-store/ folder of DATA_DIR (a temporary folder removed on close when DATA_DIR is memory://);
// an S3-compatible store chosen by configuration comes next (docs/decisions.md#photos-object-storage).
import path from 'node:path';

import { EmbeddedObjectStore } from '../adapters/object-store/embedded.ts';
import type { Context } from './context.ts';

export type { EmbeddedObjectStore, SignedRequest, StoreError } from '../adapters/object-store/embedded.ts';
export { OBJECTS_PATH } from '../adapters/object-store/embedded.ts';
export { errorXml } from '../adapters/object-store/s3-xml.ts';

export function openObjectStore(ctx: Context): Promise<EmbeddedObjectStore> {
  const dataDir = ctx.config.DATA_DIR;
  return EmbeddedObjectStore.open({
    root: dataDir.startsWith('memory://') ? undefined : path.join(path.resolve(dataDir), 'object-store'),
    signingKey: ctx.secrets.objectUrlKey,
    // Same origin as the API: the routes that hand URLs out resolve them against the request's origin.
    baseUrl: '',
    now: () => ctx.clock.nowMicros() / 1000,
  });
}
