// The S3-compatible store against a real S3 server process (s3rver, started by the test): presigned
// PUT, multipart parts and completion, GET with Range, head, delete, list, all over HTTP as a client
// would follow the URLs. s3rver checks neither V4 signatures nor Content-MD5, so what the URLs sign is
// asserted on the URLs themselves; the stores' refusals of a wrong MD5 or a changed signature are tested
// on the embedded store (routes/objects.test.ts). s3rver has no AbortMultipartUpload nor
// ListMultipartUploads (405 and 501 there): those two calls are not tested against a server.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';

import { suiteS3Store } from '../../testing/object-stores.ts';
import { S3ObjectStore } from './s3.ts';

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('base64');
const hexMd5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const signedHeaders = (url: URL) => url.searchParams.get('X-Amz-SignedHeaders')?.split(';').sort();
const bytesOf = (size: number, seed = 1) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);

describe('S3-compatible object store (s3rver)', () => {
  const s3 = suiteS3Store();
  const store = () => s3().store;

  const put = (url: string, bytes: Uint8Array) =>
    fetch(url, { method: 'PUT', body: bytes, headers: { 'content-md5': md5(bytes) } });
  const terms = (bytes: Uint8Array) => ({ length: bytes.length, md5: md5(bytes), expiresInSeconds: 600 });

  test('URLs go to the configured endpoint, path-style, and sign Content-Length and Content-MD5', async () => {
    const bytes = bytesOf(10);
    const url = new URL(await store().presignPut('1/signed', terms(bytes)));
    assert.equal(url.origin, s3().server.endpoint);
    assert.equal(store().origin, s3().server.endpoint);
    assert.equal(url.pathname, '/photos/1/signed');
    assert.equal(url.searchParams.get('X-Amz-Algorithm'), 'AWS4-HMAC-SHA256');
    assert.equal(url.searchParams.get('X-Amz-Expires'), '600');
    assert.deepEqual(signedHeaders(url), ['content-length', 'content-md5', 'host']);
    // The digest is a header the browser sends, never a query value (it would then not be checked).
    assert.ok(![...url.searchParams.keys()].some((name) => /md5|checksum/i.test(name)), url.search);
    const part = new URL(await store().presignPart('1/signed', 'upload-1', 3, terms(bytes)));
    assert.equal(part.searchParams.get('partNumber'), '3');
    assert.equal(part.searchParams.get('uploadId'), 'upload-1');
    assert.deepEqual(signedHeaders(part), ['content-length', 'content-md5', 'host']);
    await assert.rejects(store().presignPut('../escape', terms(bytes)), /invalid object key/);
  });

  test('a presigned PUT stores the bytes; head gives the size; a presigned GET returns them, with Range', async () => {
    const bytes = bytesOf(100_000);
    const response = await put(await store().presignPut('1/round-trip', terms(bytes)), bytes);
    assert.equal(response.status, 200, await response.text());
    assert.equal(response.headers.get('etag'), `"${hexMd5(bytes)}"`);
    assert.equal((await store().head('1/round-trip'))?.size, bytes.length);
    const url = await store().presignGet('1/round-trip', 600);
    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    assert.deepEqual(new Uint8Array(await whole.arrayBuffer()), bytes);
    const ranged = await fetch(url, { headers: { range: 'bytes=10-19' } });
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers.get('content-range'), `bytes 10-19/${String(bytes.length)}`);
    assert.deepEqual(new Uint8Array(await ranged.arrayBuffer()), bytes.slice(10, 20));
  });

  test("parts PUT to presigned URLs complete into their concatenation through the presigned POST of S3's XML", async () => {
    const key = '2/multipart';
    const parts = [bytesOf(70_000, 1), bytesOf(70_000, 2), bytesOf(1234, 3)];
    const uploadId = await store().createMultipartUpload(key);
    const etags: string[] = [];
    for (const [index, part] of parts.entries()) {
      const response = await put(await store().presignPart(key, uploadId, index + 1, terms(part)), part);
      assert.equal(response.status, 200, await response.text());
      etags.push(response.headers.get('etag') ?? '');
    }
    assert.deepEqual(
      etags,
      parts.map((part) => `"${hexMd5(part)}"`),
    );
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
      etags.map((etag, i) => `<Part><PartNumber>${String(i + 1)}</PartNumber><ETag>${etag}</ETag></Part>`).join('') +
      '</CompleteMultipartUpload>';
    const completed = await fetch(await store().presignComplete(key, uploadId, 600), {
      method: 'POST',
      body: xml,
      headers: { 'content-type': 'application/xml' },
    });
    const text = await completed.text();
    assert.equal(completed.status, 200, text);
    // S3 answers the ETag "md5(part md5s)-3"; s3rver the MD5 of the whole: only its presence is the shape.
    assert.match(text, /<CompleteMultipartUploadResult>.*<Key>2\/multipart<\/Key><ETag>&quot;[0-9a-f-]+&quot;<\/ETag>/);
    assert.equal((await store().head(key))?.size, 70_000 + 70_000 + 1234);
    const read = await fetch(await store().presignGet(key, 600));
    assert.deepEqual(new Uint8Array(await read.arrayBuffer()), new Uint8Array(Buffer.concat(parts)));
  });

  test('delete removes an object (a missing one too, without error); list names what is stored', async () => {
    const bytes = bytesOf(10);
    for (const key of ['3/a', '3/b'])
      assert.equal((await put(await store().presignPut(key, terms(bytes)), bytes)).status, 200);
    const keys = [];
    for await (const object of store().list()) keys.push(object.key);
    assert.ok(keys.includes('3/a') && keys.includes('3/b'), keys.join());
    await store().delete('3/a');
    await store().delete('3/a');
    await store().delete('3/never-stored');
    assert.equal(await store().head('3/a'), undefined);
    assert.equal((await store().head('3/b'))?.size, 10);
    assert.equal((await fetch(await store().presignGet('3/a', 600))).status, 404);
  });

  test('the bucket check: the bucket answers; a missing bucket is named', async () => {
    assert.equal(await store().bucketProblem(), undefined);
    const missing = await S3ObjectStore.open({ ...s3().server.storeOptions, bucket: 'no-such-bucket' });
    try {
      assert.match((await missing.bucketProblem()) ?? '', /bucket "no-such-bucket" does not exist/);
    } finally {
      await missing.close();
    }
  });
});
