/** @jest-environment node */
// The service worker that apps/auth/scripts/service-worker.mjs writes, built over a small made-up
// export: what it precaches, what it leaves to the runtime cache, and that Workbox's runtime is inside
// the file (no script from another origin).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { brandIconsCache, buildServiceWorker } from '../../scripts/service-worker.mjs';

let outDir: string;
let sw: string;
let precached: Map<string, string | null>;

const files = {
  'index.html': '<html>home</html>',
  'auth.html': '<html>codes</html>',
  'share.html': '<html>share</html>',
  'credentials.html': '<html>password</html>',
  '404.html': '<html>not found</html>',
  'two-factor/setup.html': '<html>2fa</html>',
  'favicon.ico': 'icon',
  '_next/static/chunks/main-0123abcd.js': 'main()',
  '_next/static/chunks/pages/auth-4567ef01.js': 'auth()',
  '_next/static/chunks/polyfills-89ab.js': 'polyfills()',
  '_next/static/css/0a1b2c3d.css': 'body{}',
  '_next/static/BUILDID/_buildManifest.js': 'manifest()',
  '_next/static/media/inter-latin-400-normal.ef6d3f52.woff2': 'woff2',
  '_next/static/media/inter-latin-400-normal.aa11bb22.woff': 'woff',
  'brand-icons/index.json': '{"icons":{},"names":{}}',
  'brand-icons/github.svg': '<svg/>',
  'brand-icons/google.svg': '<svg/>',
};

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'ente-auth-sw-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(outDir, name)), { recursive: true });
    writeFileSync(path.join(outDir, name), content);
  }
  await buildServiceWorker(outDir);
  sw = readFileSync(path.join(outDir, 'sw.js'), 'utf8');
  precached = new Map(
    [...sw.matchAll(/\{url:"([^"]+)",revision:(null|"[^"]*")\}/g)].map((m) => [
      m[1] ?? '',
      m[2] === 'null' ? null : (m[2] ?? ''),
    ]),
  );
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

test('every page is precached, so /auth, /credentials and /share open offline', () => {
  for (const page of [
    'index.html',
    'auth.html',
    'share.html',
    'credentials.html',
    '404.html',
    'two-factor/setup.html',
  ]) {
    expect([page, precached.has(page)]).toEqual([page, true]);
  }
  // HTML keeps its name across builds: it carries a revision.
  expect(precached.get('auth.html')).toMatch(/^"[0-9a-f]{32}"$/);
});

test('the scripts, styles, woff2 fonts, favicon and the brand icons index are precached', () => {
  for (const file of [
    '_next/static/chunks/main-0123abcd.js',
    '_next/static/chunks/pages/auth-4567ef01.js',
    '_next/static/css/0a1b2c3d.css',
    '_next/static/BUILDID/_buildManifest.js',
    '_next/static/media/inter-latin-400-normal.ef6d3f52.woff2',
    'favicon.ico',
    'brand-icons/index.json',
  ]) {
    expect([file, precached.has(file)]).toEqual([file, true]);
  }
  // Hashed names need no revision.
  expect(precached.get('_next/static/chunks/main-0123abcd.js')).toBeNull();
});

test('the brand icons, woff fonts, polyfills and the worker itself are not precached', () => {
  const urls = [...precached.keys()];
  expect(urls.filter((url) => url.endsWith('.svg'))).toEqual([]);
  expect(urls.filter((url) => url.endsWith('.woff'))).toEqual([]);
  expect(urls.filter((url) => url.includes('polyfills'))).toEqual([]);
  expect(urls).not.toContain('sw.js');
  expect(precached.size).toBe(13);
});

test('brand icons are cached cache-first at run time, in their own cache', () => {
  expect(brandIconsCache).toBe('ente-auth-brand-icons');
  expect(sw.includes(`cacheName:"${brandIconsCache}"`)).toBe(true);
  expect(sw.includes('/^\\/brand-icons\\/[^/]+\\.svg$/.test(')).toBe(true);
  expect(sw.includes('maxEntries:1e3')).toBe(true);
});

test('query parameters are ignored when matching, and unknown pages get the 404 page', () => {
  expect(sw.includes('ignoreURLParametersMatching:[/./]')).toBe(true);
  expect(sw.includes('"/404.html"')).toBe(true);
});

test('Workbox runs from inside sw.js: no importScripts, no file of its own, no CDN', () => {
  expect(sw.includes('importScripts')).toBe(false);
  expect(sw.includes('googleapis')).toBe(false);
  expect(readdirSync(outDir).filter((name) => name.startsWith('workbox-'))).toEqual([]);
  // The runtime itself is there: precaching and routing.
  expect(sw.includes('workbox:precaching:')).toBe(true);
  expect(sw.includes('workbox:routing:')).toBe(true);
});

test('a new version waits until a tab asks it to take over', () => {
  // Only on the page's message; never unasked at the top of the worker.
  expect(/"SKIP_WAITING"===\w+\.data\.type&&self\.skipWaiting\(\)/.test(sw)).toBe(true);
  expect(sw.match(/self\.skipWaiting\(\)/g)).toHaveLength(1);
  expect(sw.includes('clientsClaim')).toBe(false);
});
