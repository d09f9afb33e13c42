// Object stores shared by the tests of the enclosing `describe`: opened before them, closed after them.
// The embedded store in a temporary folder; the S3 store on a bucket of its own s3rver process.
import { after, before } from 'node:test';

import { EmbeddedObjectStore } from '../adapters/object-store/embedded.ts';
import { S3ObjectStore } from '../adapters/object-store/s3.ts';
import { startS3Server, type S3TestServer } from './s3-server.ts';

/** An embedded store in a temporary folder, signing with a fixed key on the real clock. */
export function suiteEmbeddedStore(): () => EmbeddedObjectStore {
  let store: EmbeddedObjectStore | undefined;
  before(async () => {
    store = await EmbeddedObjectStore.open({
      root: undefined,
      signingKey: new Uint8Array(32),
      baseUrl: '',
      now: Date.now,
    });
  });
  after(() => store?.close());
  return () => store ?? fail();
}

/** An S3 store on a new s3rver (no CORS rules unless given). */
export function suiteS3Store(options: { cors?: string } = {}): () => { server: S3TestServer; store: S3ObjectStore } {
  let opened: { server: S3TestServer; store: S3ObjectStore } | undefined;
  before(async () => {
    const server = await startS3Server(options);
    opened = { server, store: await S3ObjectStore.open(server.storeOptions) };
  });
  after(async () => {
    await opened?.store.close();
    await opened?.server.stop();
  });
  return () => opened ?? fail();
}

function fail(): never {
  throw new Error('The suite store is used before it was opened (outside a test?)');
}
