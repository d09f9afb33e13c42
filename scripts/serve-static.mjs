// Serves one Next static export folder (an app's out/) the way production should: clean URLs
// (/login → login.html), the export's 404.html for unknown paths, and the security headers of
// docs/self-hosting.md on every response. Zero dependencies, bound to loopback. Used by `npm start`
// (scripts/start.mjs), the browser tests, and by hand:
//   node scripts/serve-static.mjs apps/auth/out --port 3003 --api-origin http://localhost:8080
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';

/**
 * Starts a static server for `root` and resolves once it listens.
 *
 * @param {object} options
 * @param {string} options.root the export folder (an app's out/)
 * @param {number} [options.port] 0 picks a free port
 * @param {string} [options.host] the interface to bind; loopback unless told otherwise
 * @param {string[]} [options.apiOrigins] origins the app may call besides its own (its API server)
 * @param {string[]} [options.extraConnectSrc] further connect-src sources; see contentSecurityPolicy
 * @param {string[]} [options.storeOrigins] the photos' S3-compatible object store, when it is not the API's origin
 * @returns {Promise<{ server: import('node:http').Server, port: number, url: string, close: () => Promise<void> }>}
 */
export async function serveStatic({
  root,
  port = 0,
  host = '127.0.0.1',
  apiOrigins = [],
  extraConnectSrc,
  storeOrigins,
}) {
  const realRoot = await realpath(path.resolve(root));
  const headers = securityHeaders({ apiOrigins, extraConnectSrc, storeOrigins });
  const server = createServer((request, response) => {
    handle(realRoot, headers, request, response).catch((error) => {
      if (!response.headersSent) {
        send(response, 500, headers, 'text/plain; charset=utf-8', 'Internal server error');
      } else {
        response.destroy(error);
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const urlHost = host === '127.0.0.1' ? 'localhost' : host;
  return {
    server,
    port: address.port,
    url: `http://${urlHost}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

/**
 * The Content-Security-Policy of the static apps. [Note: CSP of the static apps]
 *
 * - No inline script and no eval: Next's pages-router export (webpack) only emits external scripts
 *   plus the __NEXT_DATA__ JSON block, which is data and not executed. 'wasm-unsafe-eval' lets
 *   libsodium compile its WebAssembly (it is inlined as base64 and instantiated at runtime); it
 *   allows WebAssembly compilation only, not JS eval.
 * - Styles allow 'unsafe-inline' because emotion (MUI) injects <style> elements at runtime.
 * - connect-src: the app's own origin, its configured API origin(s), and any https: origin. The
 *   last is deliberate: a user may point a running app at another Ente-compatible server in the
 *   developer settings (stored apiOrigin), and the photos app fetches files from object storage on
 *   other https origins. With scripts locked to 'self', connect-src is not what stops injected
 *   code; a deployment that wants a closed list passes extraConnectSrc: [] (CLI: --connect-src '').
 *   Plain-http origins other than the configured ones stay blocked, so pointing an app at another
 *   http:// server needs that origin added here (--api-origin).
 * - The photos' object store: uploads and downloads are fetch()es (files are decrypted into blob:
 *   URLs, which img-src and media-src already allow), so its origin goes into connect-src only: the
 *   API's origin for the embedded store, the S3 store's own (--store-origin) otherwise.
 */
export function contentSecurityPolicy({ apiOrigins = [], extraConnectSrc = ['https:'], storeOrigins = [] } = {}) {
  const connectSrc = unique([
    "'self'",
    ...apiOrigins.flatMap(loopbackAliases),
    ...storeOrigins.flatMap(loopbackAliases),
    ...extraConnectSrc,
  ]);
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src ${connectSrc.join(' ')}`,
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Every header that goes on every response besides content type and caching.
 * Referrer-Policy is no-referrer: no feature needs the Referer, and paths may carry identifiers.
 * Permissions-Policy turns off powerful features none of the apps use (WebAuthn, clipboard and
 * fullscreen keep their same-origin default, which passkeys, copying codes and cast need).
 */
export function securityHeaders(options = {}) {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

export const contentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

// WebAssembly too: libheif.wasm (the HEIC decoder) is 1.4 MB, 0.47 MB gzipped.
const compressible = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.txt',
  '.xml',
  '.svg',
  '.webmanifest',
  '.wasm',
]);

async function handle(root, headers, request, response) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    send(response, 405, { ...headers, Allow: 'GET, HEAD' }, 'text/plain; charset=utf-8', 'Method not allowed');
    return;
  }
  const pathname = decodedPathname(request.url ?? '/');
  const file = pathname === undefined ? undefined : await resolveFile(root, pathname);
  if (file) {
    await sendFile(request, response, headers, file, cacheControl(pathname, 200), 200);
    return;
  }
  const notFoundPage = await existingFile(root, path.join(root, '404.html'));
  if (notFoundPage) {
    await sendFile(request, response, headers, notFoundPage, cacheControl('', 404), 404);
  } else {
    send(response, 404, headers, 'text/plain; charset=utf-8', 'Not found');
  }
}

/** The request's path, percent-decoded; undefined when it cannot be decoded or holds a NUL. */
function decodedPathname(requestUrl) {
  // Split by hand: new URL('//x', base) would read "x" as a host name, not a path.
  const rawPath = requestUrl.split(/[?#]/, 1)[0] ?? '';
  if (!rawPath.startsWith('/')) return undefined;
  try {
    const pathname = decodeURIComponent(rawPath);
    return pathname.includes('\0') ? undefined : pathname;
  } catch {
    return undefined;
  }
}

/** Maps a decoded request path to a file inside root, or undefined. Never leaves root, never lists a folder. */
async function resolveFile(root, pathname) {
  // Normalising an absolute path folds every "..", encoded or not, without climbing above "/";
  // the result is still checked to stay inside root.
  const base = path.join(root, path.posix.normalize(pathname));
  if (!isInside(root, base)) return undefined;
  const trimmed = base.replace(/\/+$/, '');
  const candidates = pathname.endsWith('/')
    ? [path.join(trimmed, 'index.html'), `${trimmed}.html`]
    : [base, `${base}.html`, path.join(base, 'index.html')];
  for (const candidate of candidates) {
    const file = await existingFile(root, candidate);
    if (file) return file;
  }
  return undefined;
}

/** The real path of candidate if it is a regular file whose real location is inside root. */
async function existingFile(root, candidate) {
  if (!isInside(root, candidate)) return undefined;
  try {
    const real = await realpath(candidate);
    if (!isInside(root, real)) return undefined; // a symlink pointing out of the export
    const info = await stat(real);
    return info.isFile() ? { path: real, size: info.size, mtime: info.mtime } : undefined;
  } catch {
    return undefined;
  }
}

function isInside(root, candidate) {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

async function sendFile(request, response, headers, file, cache, status) {
  const extension = path.extname(file.path).toLowerCase();
  const etag = `"${file.size.toString(16)}-${Math.floor(file.mtime.getTime()).toString(16)}"`;
  const responseHeaders = {
    ...headers,
    'Content-Type': contentTypes[extension] ?? 'application/octet-stream',
    'Cache-Control': cache,
    'Last-Modified': file.mtime.toUTCString(),
    ETag: etag,
  };
  if (status === 200 && request.headers['if-none-match'] === etag) {
    response.writeHead(304, responseHeaders);
    response.end();
    return;
  }
  const gzip = compressible.has(extension) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  if (compressible.has(extension)) responseHeaders.Vary = 'Accept-Encoding';
  if (gzip) {
    responseHeaders['Content-Encoding'] = 'gzip';
  } else {
    responseHeaders['Content-Length'] = String(file.size);
  }
  response.writeHead(status, responseHeaders);
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  await new Promise((resolve, reject) => {
    const source = createReadStream(file.path);
    const stream = gzip ? source.pipe(createGzip()) : source;
    source.on('error', reject);
    stream.on('error', reject);
    response.on('close', () => resolve(undefined));
    stream.pipe(response);
  });
}

// Build output under /_next/static/ has content hashes in its names, so it may be cached forever;
// everything else (HTML, favicon) must be revalidated so a new deployment shows up at once.
function cacheControl(pathname, status) {
  if (status === 200 && pathname.startsWith('/_next/static/')) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

function send(response, status, headers, contentType, body) {
  response.writeHead(status, { ...headers, 'Content-Type': contentType, 'Cache-Control': 'no-cache' });
  response.end(body);
}

/** http://localhost:P and http://127.0.0.1:P name the same server; allow both spellings. */
function loopbackAliases(origin) {
  const url = new URL(origin);
  const aliases = [url.origin];
  if (url.hostname === 'localhost') aliases.push(url.origin.replace('//localhost', '//127.0.0.1'));
  if (url.hostname === '127.0.0.1') aliases.push(url.origin.replace('//127.0.0.1', '//localhost'));
  return aliases;
}

function unique(values) {
  return [...new Set(values)];
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '3000' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-origin': { type: 'string', multiple: true, default: [] },
      'connect-src': { type: 'string' },
      'store-origin': { type: 'string', multiple: true, default: [] },
    },
  });
  const [folder] = positionals;
  if (!folder) {
    console.error(
      'usage: node scripts/serve-static.mjs <out-folder> [--port 3000] [--host 127.0.0.1] ' +
        "[--api-origin http://localhost:8080]... [--store-origin http://localhost:9000]... [--connect-src 'https:']",
    );
    process.exit(2);
  }
  const extraConnectSrc =
    values['connect-src'] === undefined ? undefined : values['connect-src'].split(/\s+/).filter(Boolean);
  const { url, close } = await serveStatic({
    root: folder,
    port: Number(values.port),
    host: values.host,
    apiOrigins: values['api-origin'],
    storeOrigins: values['store-origin'],
    extraConnectSrc,
  });
  console.log(`serving ${path.resolve(folder)} at ${url}`);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => close().then(() => process.exit(0)));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
