/** @jest-environment node */
// The service worker that apps/auth/scripts/service-worker.mjs writes, built over a small made-up
// export: what it precaches, what it leaves to the runtime cache, and that Workbox's runtime is inside
// the file (no script from another origin); and, running the built sw.js over fake caches, that a path
// that is no page is answered with the 404 page and status 404.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

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

test('query parameters are ignored when matching', () => {
  expect(sw.includes('ignoreURLParametersMatching:[/./]')).toBe(true);
});

// Just enough of a worker's world to run sw.js: Cache Storage in memory, a fetch that reads the export
// folder (or fails while offline), and the install, activate and fetch events.
const origin = 'https://auth.test';

class MemoryCache {
  readonly entries = new Map<string, Response>();
  private keyOf(request: RequestInfo) {
    return new URL(typeof request === 'string' ? request : request.url, origin).href;
  }
  match(request: RequestInfo, options: CacheQueryOptions = {}) {
    const key = this.keyOf(request);
    for (const [url, response] of this.entries) {
      if (url === key || (options.ignoreSearch && url.split('?')[0] === key.split('?')[0])) {
        return Promise.resolve(response.clone());
      }
    }
    return Promise.resolve(undefined);
  }
  put(request: RequestInfo, response: Response) {
    this.entries.set(this.keyOf(request), response.clone());
    return Promise.resolve();
  }
  keys() {
    return Promise.resolve([...this.entries.keys()].map((url) => new Request(url)));
  }
  delete(request: RequestInfo) {
    return Promise.resolve(this.entries.delete(this.keyOf(request)));
  }
}

class FakeFetchEvent {
  readonly type = 'fetch';
  constructor(props: object) {
    Object.assign(this, props);
  }
}

/** A navigation request (Node's Request refuses mode "navigate" in its constructor). */
class Navigation extends Request {
  override get mode(): RequestMode {
    return 'navigate';
  }
}

async function runWorker() {
  const stores = new Map<string, MemoryCache>();
  const caches = {
    open: (name: string) => {
      if (!stores.has(name)) stores.set(name, new MemoryCache());
      return Promise.resolve(stores.get(name));
    },
    match: async (request: RequestInfo, options?: CacheQueryOptions) => {
      for (const cache of stores.values()) {
        const found = await cache.match(request, options);
        if (found) return found;
      }
      return undefined;
    },
    keys: () => Promise.resolve([...stores.keys()]),
    delete: (name: string) => Promise.resolve(stores.delete(name)),
    has: (name: string) => Promise.resolve(stores.has(name)),
  };
  const network = { online: true };
  const fetchFile = (request: RequestInfo) => {
    const { pathname } = new URL(typeof request === 'string' ? request : request.url, origin);
    if (!network.online) return Promise.reject(new TypeError('Failed to fetch'));
    const file = path.join(outDir, pathname);
    try {
      return Promise.resolve(
        new Response(readFileSync(file), { status: 200, headers: { 'content-type': 'text/html' } }),
      );
    } catch {
      return Promise.resolve(new Response('from the server', { status: 404 }));
    }
  };
  const listeners = new Map<string, ((event: object) => void)[]>();
  const location = new URL(`${origin}/sw.js`);
  const self = {
    addEventListener: (type: string, listener: (event: object) => void) =>
      listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    registration: { scope: `${origin}/` },
    location,
    caches,
    fetch: fetchFile,
  };
  const context = vm.createContext({ self, caches, fetch: fetchFile, location, FetchEvent: FakeFetchEvent });
  Object.assign(context, { Request, Response, Headers, URL, setTimeout, console });
  vm.runInContext(sw, context);

  const fire = async (type: string, props: object = {}) => {
    const waits: Promise<unknown>[] = [];
    let response: Promise<Response> | undefined;
    const fields = {
      type,
      waitUntil: (promise: Promise<unknown>) => waits.push(promise),
      respondWith: (promise: Promise<Response>) => (response = promise),
      ...props,
    };
    const event = type === 'fetch' ? new FakeFetchEvent(fields) : fields;
    for (const listener of listeners.get(type) ?? []) listener(event);
    await Promise.all(waits);
    return response;
  };
  await fire('install');
  await fire('activate');
  const navigate = async (pathname: string) => {
    const response = await fire('fetch', { request: new Navigation(`${origin}${pathname}`) });
    if (!response) throw new Error(`sw.js did not answer ${pathname}`);
    return response;
  };
  return { navigate, network };
}

test('a path that is no page gets the 404 page with status 404, online and offline; pages get status 200', async () => {
  const { navigate, network } = await runWorker();
  for (const online of [true, false]) {
    network.online = online;
    const missing = await navigate('/no-such-page?x=1');
    expect([online, missing.status, await missing.text()]).toEqual([online, 404, '<html>not found</html>']);
    const page = await navigate('/auth');
    expect([online, page.status, await page.text()]).toEqual([online, 200, '<html>codes</html>']);
  }
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
