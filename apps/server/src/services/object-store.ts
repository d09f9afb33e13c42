// Opens the object store photos are kept in, as the configuration says: the embedded store in the
// object-store/ folder of DATA_DIR (a temporary folder removed on close when DATA_DIR is memory://), or
// an S3-compatible bucket when S3_BUCKET is set; and checks at start that such a bucket is usable from
// the photos apps (docs/decisions.md#photos-object-storage).
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';

import { EmbeddedObjectStore } from '../adapters/object-store/embedded.ts';
import { S3ObjectStore } from '../adapters/object-store/s3.ts';
import type { Context } from './context.ts';

export type { EmbeddedObjectStore, StoreError } from '../adapters/object-store/embedded.ts';
export type { ObjectStore } from '../adapters/object-store/object-store.ts';
export { OBJECTS_PATH } from '../adapters/object-store/embedded.ts';
export { errorXml } from '../adapters/object-store/s3-xml.ts';

export type OpenObjectStore = EmbeddedObjectStore | S3ObjectStore;

export function openObjectStore(ctx: Context): Promise<OpenObjectStore> {
  const config = ctx.config;
  if (config.S3_BUCKET !== undefined) {
    return S3ObjectStore.open({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  const dataDir = config.DATA_DIR;
  return EmbeddedObjectStore.open({
    root: dataDir.startsWith('memory://') ? undefined : path.join(path.resolve(dataDir), 'object-store'),
    signingKey: ctx.secrets.objectUrlKey,
    // Same origin as the API: the routes that hand URLs out resolve them against the request's origin.
    baseUrl: '',
    now: () => ctx.clock.nowMicros() / 1000,
  });
}

/** The embedded store, whose URLs this server serves itself (routes/objects.ts); undefined for S3. */
export function embeddedStoreOf(store: OpenObjectStore): EmbeddedObjectStore | undefined {
  return store instanceof EmbeddedObjectStore ? store : undefined;
}

/** How long the start-up check may take in all. */
const CHECK_TIMEOUT_MS = 15_000;

/**
 * What stops the photos apps from using an S3 store, each with its fix (empty: nothing found): the
 * bucket answers the server's credentials; a presigned PUT (length and Content-MD5 signed) and GET work
 * from here; and for each photos app origin, the bucket's CORS answers a preflight of that PUT with
 * Content-MD5 and exposes ETag to a cross-origin read (the uploader reads the parts' ETags). A tiny
 * object is written for it, and removed.
 */
export async function objectStoreProblems(store: S3ObjectStore, origins: readonly string[]): Promise<string[]> {
  const bucket = await store.bucketProblem();
  if (bucket) {
    return [`${bucket}: check S3_ENDPOINT, S3_REGION, S3_BUCKET and the keys, and that the bucket exists`];
  }
  const problems: string[] = [];
  const key = `ente-start-up-check/${randomUUID()}`;
  const body = Buffer.from('ente start-up check');
  const md5 = createHash('md5').update(body).digest('base64');
  const putUrl = await store.presignPut(key, { length: body.length, md5, expiresInSeconds: 300 });
  try {
    const put = await fetch(putUrl, { method: 'PUT', body, headers: { 'content-md5': md5 } });
    if (!put.ok) {
      const detail = (await put.text()).slice(0, 300);
      return [`a presigned PUT answered ${String(put.status)}: check the keys' write permission (${detail})`];
    }
    const getUrl = await store.presignGet(key, 300);
    for (const origin of origins) {
      const preflight = await fetch(putUrl, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-md5,content-type',
        },
      });
      const allowedOrigin = preflight.headers.get('access-control-allow-origin');
      const allowedHeaders = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      if (
        !preflight.ok ||
        (allowedOrigin !== '*' && allowedOrigin !== origin) ||
        !(allowedHeaders.includes('content-md5') || allowedHeaders.includes('*'))
      ) {
        problems.push(
          `the bucket's CORS does not let ${origin} PUT with Content-MD5 (preflight answered ${String(preflight.status)}): ` +
            'allow that origin, the methods GET, PUT and POST, and the headers Content-MD5 and Content-Type (or *)',
        );
        continue;
      }
      const read = await fetch(getUrl, { headers: { origin } });
      await read.arrayBuffer();
      const exposed = (read.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      if (!read.ok || !exposed.includes('etag')) {
        problems.push(
          `the bucket's CORS does not expose ETag to ${origin}: add ETag to its ExposeHeaders ` +
            "(multipart uploads read each part's ETag)",
        );
      }
    }
  } finally {
    await store.delete(key).catch(() => undefined);
  }
  return problems;
}

/**
 * The start-up check of an S3 store, in the background: each problem is a warning in the log. The
 * server starts either way (the accounts and authenticator APIs do not need the store).
 */
export function checkObjectStoreAtStart(ctx: Context, store: OpenObjectStore): Promise<string[]> {
  if (!(store instanceof S3ObjectStore)) return Promise.resolve([]);
  const timeout = new Promise<string[]>((resolve) => {
    setTimeout(
      () => resolve([`the store at ${store.origin} did not answer within ${String(CHECK_TIMEOUT_MS / 1000)} s`]),
      CHECK_TIMEOUT_MS,
    ).unref();
  });
  const check = objectStoreProblems(store, ctx.config.PHOTOS_APP_ORIGINS).catch((error: unknown) => [
    `the store at ${store.origin} could not be checked: ${error instanceof Error ? error.message : String(error)}`,
  ]);
  return Promise.race([check, timeout]).then((problems) => {
    for (const problem of problems) {
      ctx.log.warn(
        `object store (S3 bucket "${store.bucket}" at ${store.origin}): ${problem}; see docs/self-hosting.md`,
      );
    }
    if (problems.length === 0) ctx.log.info(`object store: S3 bucket "${store.bucket}" at ${store.origin} checked`);
    return problems;
  });
}
