// Which store the configuration opens, and the start-up check of an S3 store against a real S3 server
// (s3rver) whose bucket CORS each test chooses: a bucket the photos app can use passes; a missing
// bucket, CORS that refuses the app's PUT with Content-MD5, or CORS that hides ETag are each named.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { EmbeddedObjectStore } from '../adapters/object-store/embedded.ts';
import { S3ObjectStore } from '../adapters/object-store/s3.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { photosCors, startS3Server, type S3TestServer } from '../testing/s3-server.ts';
import { startTestServer } from '../testing/server.ts';
import type { Context } from './context.ts';
import { checkObjectStoreAtStart, objectStoreProblems } from './object-store.ts';

const origin = 'http://localhost:3000';

async function withStore<T>(
  cors: string | undefined,
  body: (store: S3ObjectStore, server: S3TestServer) => Promise<T>,
) {
  const server = await startS3Server({ cors });
  const store = await S3ObjectStore.open(server.storeOptions);
  try {
    return await body(store, server);
  } finally {
    await store.close();
    await server.stop();
  }
}

describe('object store start-up check (s3rver)', () => {
  test('a bucket whose CORS lets the photos app PUT with Content-MD5 and read ETag passes, leaving nothing', async () => {
    await withStore(photosCors(origin), async (store) => {
      assert.deepEqual(await objectStoreProblems(store, [origin]), []);
      const left = [];
      for await (const object of store.list()) left.push(object.key);
      assert.deepEqual(left, [], 'the probe object is removed');
    });
  });

  test('a missing bucket is named, with what to check', async () => {
    await withStore(photosCors(origin), async (_store, server) => {
      const missing = await S3ObjectStore.open({ ...server.storeOptions, bucket: 'not-there' });
      try {
        const [problem, ...rest] = await objectStoreProblems(missing, [origin]);
        assert.deepEqual(rest, []);
        assert.match(problem ?? '', /bucket "not-there" does not exist: check S3_ENDPOINT, S3_REGION, S3_BUCKET/);
      } finally {
        await missing.close();
      }
    });
  });

  test('a store nobody answers at is named with the cause', async () => {
    const unreachable = await S3ObjectStore.open({
      endpoint: 'http://127.0.0.1:1',
      region: 'us-east-1',
      bucket: 'photos',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    try {
      const problems = await objectStoreProblems(unreachable, [origin]);
      assert.equal(problems.length, 1);
      assert.match(
        problems[0] ?? '',
        /bucket "photos" did not answer as expected: .*ECONNREFUSED.*: check S3_ENDPOINT/,
      );
    } finally {
      await unreachable.close();
    }
  });

  test('no CORS, or CORS for another origin: the preflight of the PUT is named per origin', async () => {
    await withStore(undefined, async (store) => {
      const problems = await objectStoreProblems(store, [origin]);
      assert.equal(problems.length, 1);
      assert.match(problems[0] ?? '', /CORS does not let http:\/\/localhost:3000 PUT with Content-MD5.*Content-MD5/);
    });
    await withStore(photosCors('https://photos.example.org'), async (store) => {
      const problems = await objectStoreProblems(store, [origin, 'https://photos.example.org']);
      assert.equal(problems.length, 1);
      assert.match(problems[0] ?? '', /http:\/\/localhost:3000 PUT/);
    });
  });

  test('CORS that allows only some headers, or hides ETag, is named', async () => {
    const onlyContentType = photosCors(origin).replace(
      '<AllowedHeader>*</AllowedHeader>',
      '<AllowedHeader>content-type</AllowedHeader>',
    );
    await withStore(onlyContentType, async (store) => {
      assert.match((await objectStoreProblems(store, [origin])).join('\n'), /PUT with Content-MD5/);
    });
    const noEtag = photosCors(origin).replace('<ExposeHeader>ETag</ExposeHeader>', '');
    await withStore(noEtag, async (store) => {
      const problems = await objectStoreProblems(store, [origin]);
      assert.equal(problems.length, 1);
      assert.match(problems[0] ?? '', /does not expose ETag to http:\/\/localhost:3000/);
    });
  });

  test('at start, each problem is one warning naming the store and the fix; the embedded store is not checked', async () => {
    await withStore(undefined, async (store) => {
      const warnings: string[] = [];
      const log = { warn: (line: string) => warnings.push(line), info: () => undefined };
      const ctx = { config: { PHOTOS_APP_ORIGINS: [origin] }, log } as unknown as Context;
      const problems = await checkObjectStoreAtStart(ctx, store);
      assert.equal(problems.length, 1);
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0] ?? '',
        /^object store \(S3 bucket "photos" at http:\/\/127\.0\.0\.1:\d+\): the bucket's CORS/,
      );
      assert.match(warnings[0] ?? '', /see docs\/self-hosting\.md$/);
    });
    const embedded = await EmbeddedObjectStore.open({
      root: undefined,
      signingKey: new Uint8Array(32),
      baseUrl: '',
      now: Date.now,
    });
    try {
      assert.deepEqual(await checkObjectStoreAtStart({} as Context, embedded), []);
    } finally {
      await embedded.close();
    }
  });

  test('with S3_BUCKET the server uses the bucket: its URLs go to the store, and /objects/ is not served', async () => {
    await withStore(photosCors(origin), async (_store, s3) => {
      const server = await startTestServer({
        env: {
          S3_BUCKET: s3.storeOptions.bucket,
          S3_ENDPOINT: s3.endpoint,
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          S3_FORCE_PATH_STYLE: '1',
        },
      });
      try {
        const store = server.app.objectStore;
        assert.ok(store instanceof S3ObjectStore);
        const bytes = Buffer.from('through the configured store');
        const url = await store.presignPut('1/configured', {
          length: bytes.length,
          md5: (await import('node:crypto')).createHash('md5').update(bytes).digest('base64'),
          expiresInSeconds: 60,
        });
        assert.ok(url.startsWith(`${s3.endpoint}/photos/1/configured?`), url);
        assert.equal((await fetch(url, { method: 'PUT', body: bytes })).status, 200);
        assert.equal((await store.head('1/configured'))?.size, bytes.length);
        assert.equal((await fetch(`${server.url}/objects/1/configured`)).status, 404);
      } finally {
        await server.close();
      }
    });
  });
});

describe('object store configuration', () => {
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: 'memory://', ...env });

  test('the embedded store by default; S3_BUCKET with its settings chooses S3', () => {
    assert.equal(load({}).S3_BUCKET, undefined);
    const config = load({
      S3_BUCKET: 'ente-photos',
      S3_ENDPOINT: 'http://localhost:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      PHOTOS_APP_ORIGINS: 'https://photos.example.org/, https://web.example.org',
    });
    assert.equal(config.S3_BUCKET, 'ente-photos');
    assert.equal(config.S3_REGION, 'us-east-1');
    assert.equal(config.S3_FORCE_PATH_STYLE, true);
    assert.deepEqual(config.PHOTOS_APP_ORIGINS, ['https://photos.example.org', 'https://web.example.org']);
  });

  test('settings that do not go together, or are malformed, stop the start with the variable named', () => {
    const refusals: [Record<string, string>, RegExp][] = [
      [{ S3_BUCKET: 'photos', S3_ACCESS_KEY_ID: 'key' }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/],
      [{ S3_ENDPOINT: 'http://localhost:9000' }, /S3_BUCKET: must be set/],
      [{ S3_BUCKET: 'Not_A_Bucket' }, /S3_BUCKET: must be an S3 bucket name/],
      [{ S3_BUCKET: 'photos', S3_ENDPOINT: 'ftp://store' }, /S3_ENDPOINT/],
      [{ PHOTOS_APP_ORIGINS: 'photos.example.org' }, /PHOTOS_APP_ORIGINS/],
    ];
    for (const [env, message] of refusals) {
      assert.throws(
        () => load(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    }
  });
});
