// Tests of the static server of `npm start`: clean URLs, the 404 page, traversal and listing
// refused, caching, and the security headers on every response. Run: node --test scripts/
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { contentSecurityPolicy, serveStatic } from './serve-static.mjs';
import { objectStoreOrigin } from './start.mjs';

/** The header of an empty WebAssembly module, then padding. */
const wasmBytes = Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(4096)]);

describe('serve-static', () => {
  let sandbox;
  let server;

  before(async () => {
    sandbox = await mkdtemp(path.join(tmpdir(), 'serve-static-test-'));
    const out = path.join(sandbox, 'out');
    await mkdir(path.join(out, '_next/static/chunks'), { recursive: true });
    await mkdir(path.join(out, '_next/static/media'), { recursive: true });
    await mkdir(path.join(out, 'two-factor'), { recursive: true });
    await mkdir(path.join(out, 'guide'), { recursive: true });
    await writeFile(path.join(out, 'index.html'), '<p>index page</p>');
    await writeFile(path.join(out, 'login.html'), '<p>login page</p>');
    await writeFile(path.join(out, 'two-factor/setup.html'), '<p>two-factor setup</p>');
    await writeFile(path.join(out, 'guide/index.html'), '<p>guide index</p>');
    await writeFile(path.join(out, '404.html'), '<p>not found page</p>');
    await writeFile(path.join(out, '_next/static/chunks/main.js'), 'console.log("main chunk");'.repeat(50));
    await writeFile(path.join(out, '_next/static/media/decoder.0a1b2c3d.wasm'), wasmBytes);
    await writeFile(path.join(out, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await writeFile(path.join(sandbox, 'secret.txt'), 'TOP SECRET');
    await symlink(path.join(sandbox, 'secret.txt'), path.join(out, 'leak.txt'));
    server = await serveStatic({ root: out, apiOrigins: ['http://localhost:8080'] });
  });

  after(async () => {
    await server?.close();
    await rm(sandbox, { recursive: true, force: true });
  });

  test('binds to loopback only', () => {
    assert.equal(server.server.address().address, '127.0.0.1');
  });

  test('serves /login from login.html, with or without a trailing slash', async () => {
    for (const url of ['/login', '/login/', '/login?next=%2Fauth', '/login.html']) {
      const response = await get(server.port, url);
      assert.equal(response.status, 200, url);
      assert.equal(response.body, '<p>login page</p>', url);
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(response.headers['cache-control'], 'no-cache');
    }
  });

  test('serves nested routes and folder index pages', async () => {
    assert.equal((await get(server.port, '/two-factor/setup')).body, '<p>two-factor setup</p>');
    assert.equal((await get(server.port, '/')).body, '<p>index page</p>');
    assert.equal((await get(server.port, '/guide')).body, '<p>guide index</p>');
    assert.equal((await get(server.port, '/guide/')).body, '<p>guide index</p>');
  });

  test('answers unknown paths with 404.html and status 404', async () => {
    const response = await get(server.port, '/no/such/page');
    assert.equal(response.status, 404);
    assert.equal(response.body, '<p>not found page</p>');
    assert.match(response.headers['content-security-policy'], /default-src 'self'/);
  });

  test('never lists a folder', async () => {
    for (const url of ['/_next/', '/_next', '/_next/static/chunks/', '/two-factor/']) {
      const response = await get(server.port, url);
      assert.equal(response.status, 404, url);
      assert.equal(response.body, '<p>not found page</p>', url);
    }
  });

  test('refuses to leave the export folder', async () => {
    const attempts = [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/_next/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00/../secret.txt',
      '/leak.txt',
      '//secret.txt',
      '/%E0%A4%A',
    ];
    for (const url of attempts) {
      const response = await get(server.port, url);
      assert.equal(response.status, 404, url);
      assert.doesNotMatch(response.body, /TOP SECRET/, url);
    }
  });

  test('sends hashed build assets with a long cache and the right type', async () => {
    const response = await get(server.port, '/_next/static/chunks/main.js');
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
  });

  test('sends the service worker as JavaScript that is revalidated on every check', async () => {
    // A cached sw.js would keep an old version of the app installed (apps/auth/scripts/service-worker.mjs).
    const response = await get(server.port, '/sw.js');
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.match(response.headers['content-security-policy'], /worker-src 'self'/);
  });

  test('gzips text when the client accepts it', async () => {
    const response = await get(server.port, '/_next/static/chunks/main.js', { 'accept-encoding': 'gzip, br' });
    assert.equal(response.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(response.raw).toString(), 'console.log("main chunk");'.repeat(50));
  });

  test('sends WebAssembly as application/wasm (for streaming compilation), cached as immutable and gzipped', async () => {
    const response = await get(server.port, '/_next/static/media/decoder.0a1b2c3d.wasm', { 'accept-encoding': 'gzip' });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/wasm');
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(response.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(response.raw), wasmBytes);
  });

  test('answers a matching ETag with 304', async () => {
    const first = await get(server.port, '/login');
    const second = await get(server.port, '/login', { 'if-none-match': first.headers.etag });
    assert.equal(second.status, 304);
    assert.equal(second.body, '');
  });

  test('only allows GET and HEAD', async () => {
    const post = await get(server.port, '/login', {}, 'POST');
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
    const head = await get(server.port, '/login', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
  });

  test('puts the security headers on every response', async () => {
    for (const url of ['/login', '/nope', '/_next/static/chunks/main.js']) {
      const { headers } = await get(server.port, url);
      const csp = headers['content-security-policy'];
      assert.ok(csp, url);
      const scriptSrc = directive(csp, 'script-src');
      assert.deepEqual(scriptSrc, ["'self'", "'wasm-unsafe-eval'"]);
      assert.doesNotMatch(csp, /'unsafe-eval'/);
      assert.deepEqual(directive(csp, 'object-src'), ["'none'"]);
      assert.deepEqual(directive(csp, 'frame-ancestors'), ["'none'"]);
      assert.deepEqual(directive(csp, 'base-uri'), ["'self'"]);
      assert.deepEqual(directive(csp, 'connect-src'), [
        "'self'",
        'http://localhost:8080',
        'http://127.0.0.1:8080',
        'https:',
      ]);
      assert.equal(headers['x-content-type-options'], 'nosniff');
      assert.equal(headers['referrer-policy'], 'no-referrer');
      assert.equal(headers['cross-origin-opener-policy'], 'same-origin');
      assert.match(headers['permissions-policy'], /camera=\(\)/);
    }
  });

  test('lets a deployment close connect-src to its own list', () => {
    const csp = contentSecurityPolicy({ apiOrigins: ['https://api.example.org'], extraConnectSrc: [] });
    assert.deepEqual(directive(csp, 'connect-src'), ["'self'", 'https://api.example.org']);
  });

  test("allows the object store's origin (an S3 store on plain http too) in connect-src", () => {
    const csp = contentSecurityPolicy({
      apiOrigins: ['https://api.example.org'],
      storeOrigins: ['http://localhost:9000'],
      extraConnectSrc: [],
    });
    assert.deepEqual(directive(csp, 'connect-src'), [
      "'self'",
      'https://api.example.org',
      'http://localhost:9000',
      'http://127.0.0.1:9000',
    ]);
    assert.deepEqual(directive(csp, 'img-src'), ["'self'", 'data:', 'blob:']);
  });

  test("the local stack's CSP learns the store's origin from the server's S3 settings", () => {
    assert.equal(objectStoreOrigin({}), undefined);
    const local = { S3_BUCKET: 'photos', S3_ENDPOINT: 'http://localhost:9000/', S3_FORCE_PATH_STYLE: '1' };
    assert.equal(objectStoreOrigin(local), 'http://localhost:9000');
    assert.equal(
      objectStoreOrigin({ S3_BUCKET: 'photos', S3_ENDPOINT: 'https://s3.example.org' }),
      'https://photos.s3.example.org',
    );
    assert.equal(
      objectStoreOrigin({ S3_BUCKET: 'photos', S3_REGION: 'eu-west-1' }),
      'https://photos.s3.eu-west-1.amazonaws.com',
    );
  });
});

function directive(csp, name) {
  const found = csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([key]) => key === name);
  return found?.slice(1);
}

/** A raw HTTP request: fetch would normalise the traversal paths before sending them. */
function get(port, pathAndQuery, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathAndQuery, method, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: response.statusCode, headers: response.headers, raw, body: raw.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
