import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { EmbeddedObjectStore } from './embedded.ts';
import { keyProblem } from './object-store.ts';
import { completeResultXml, errorXml, parseCompleteMultipartUpload } from './s3-xml.ts';

describe('object keys', () => {
  test("keys like museum's are accepted", () => {
    for (const key of [
      '1580559962386438/0b0f7a1c-1e2b-4f5a-9d1e-5b9a4d3c2b1a',
      'a',
      'a/b.c/d..e',
      'ü/😀',
      'a/.hidden',
    ]) {
      assert.equal(keyProblem(key), undefined, key);
    }
  });

  test('keys that could leave the store or mean something else on disk are refused', () => {
    const refused = [
      '',
      '..',
      '../etc/passwd',
      'a/../../b',
      'a/./b',
      '.',
      '/etc/passwd',
      'C:/windows',
      'a\\..\\b',
      'a\u0000b',
      'a\nb',
      'a//b',
      'a/',
      'x'.repeat(1025),
      'a\uD800b',
    ];
    for (const key of refused) assert.notEqual(keyProblem(key), undefined, JSON.stringify(key));
  });

  test('the store refuses to sign or touch an invalid key, and writes nothing outside its folder', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'ente-objects-test-'));
    const store = await EmbeddedObjectStore.open({
      root: path.join(parent, 'store'),
      signingKey: new Uint8Array(32),
      baseUrl: '',
      now: Date.now,
    });
    try {
      const terms = { length: 1, md5: '', expiresInSeconds: 60 };
      await assert.rejects(store.presignPut('../escape', terms), /invalid object key/);
      await assert.rejects(store.presignGet('/abs', 60), /invalid object key/);
      await assert.rejects(store.createMultipartUpload('a/../../b'), /invalid object key/);
      await assert.rejects(store.delete('../store'), /invalid object key/);
      await assert.rejects(store.head('..'), /invalid object key/);
      assert.deepEqual(await readdir(parent), ['store']);
    } finally {
      await store.close();
      await rm(parent, { recursive: true, force: true });
    }
  });

  test('a memory store (no root) removes its temporary folder on close', async () => {
    const before = new Set(await readdir(os.tmpdir()));
    const store = await EmbeddedObjectStore.open({
      root: undefined,
      signingKey: new Uint8Array(32),
      baseUrl: '',
      now: Date.now,
    });
    const created = (await readdir(os.tmpdir())).filter(
      (name) => !before.has(name) && name.startsWith('ente-objects-'),
    );
    assert.equal(created.length, 1);
    await store.close();
    assert.equal((await readdir(os.tmpdir())).includes(created[0] ?? ''), false);
  });
});

describe('CompleteMultipartUpload XML', () => {
  const md5 = (digit: string) => digit.repeat(32);

  test('reads the parts of the document S3 clients send', () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">\n' +
      `  <Part>\n    <PartNumber>1</PartNumber>\n    <ETag>"${md5('a')}"</ETag>\n  </Part>\n` +
      `  <Part><ETag>&quot;${md5('B')}&quot;</ETag><PartNumber>2</PartNumber></Part>\n` +
      `  <Part><PartNumber>3</PartNumber><ETag>${md5('c')}</ETag><ChecksumSHA256>x</ChecksumSHA256></Part>\n` +
      '</CompleteMultipartUpload>';
    assert.deepEqual(parseCompleteMultipartUpload(xml), [
      { partNumber: 1, etag: md5('a') },
      { partNumber: 2, etag: md5('b') },
      { partNumber: 3, etag: md5('c') },
    ]);
  });

  test('anything else is malformed', () => {
    const part = `<Part><PartNumber>1</PartNumber><ETag>"${md5('a')}"</ETag></Part>`;
    const malformed = [
      '',
      'not xml',
      '<CompleteMultipartUpload></CompleteMultipartUpload>',
      `<CompleteMultipartUpload>${part}`,
      `<Other>${part}</Other>`,
      `<CompleteMultipartUpload>${part}<Extra/></CompleteMultipartUpload>`,
      `<CompleteMultipartUpload>${part}junk</CompleteMultipartUpload>`,
      `<CompleteMultipartUpload><Part><PartNumber>0</PartNumber><ETag>"${md5('a')}"</ETag></Part></CompleteMultipartUpload>`,
      `<CompleteMultipartUpload><Part><PartNumber>10001</PartNumber><ETag>"${md5('a')}"</ETag></Part></CompleteMultipartUpload>`,
      `<CompleteMultipartUpload><Part><PartNumber>01</PartNumber><ETag>"${md5('a')}"</ETag></Part></CompleteMultipartUpload>`,
      `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"abc"</ETag></Part></CompleteMultipartUpload>`,
      `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>`,
      `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><PartNumber>2</PartNumber><ETag>"${md5('a')}"</ETag></Part></CompleteMultipartUpload>`,
      `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"${md5('a')}"</ETag><Size>3</Size></Part></CompleteMultipartUpload>`,
      `<!DOCTYPE x [<!ENTITY e "1">]><CompleteMultipartUpload>${part}</CompleteMultipartUpload>`,
    ];
    for (const xml of malformed) assert.ok('malformed' in parseCompleteMultipartUpload(xml), xml);
  });

  test('answers escape what they carry', () => {
    assert.match(
      errorXml('BadDigest', 'a <b> & "c"'),
      /<Code>BadDigest<\/Code><Message>a &lt;b&gt; &amp; &quot;c&quot;<\/Message>/,
    );
    assert.match(completeResultXml('k/1', '"e-2"'), /<Key>k\/1<\/Key><ETag>&quot;e-2&quot;<\/ETag>/);
  });
});
