// Writes the auth app's service worker, out/sw.js, after `next build` (the app's "build" script), so
// that the app opens and shows the cached codes offline after one visit. Workbox's generateSW
// precaches the exported files and inlines its own runtime into sw.js, so the worker is one file of our
// origin (the CSP allows scripts and workers from 'self' only). See: [Note: The auth service worker]
//   node scripts/service-worker.mjs [out-folder]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { generateSW } from 'workbox-build';

// [Note: The auth service worker]
// What it precaches: the HTML of every route (so /auth, /credentials and /share open offline; the
// clean URL /auth finds auth.html), the scripts and styles under _next/static, the woff2 fonts, the
// favicon and the brand icons' index. Not precached: the 3,400 brand icon SVGs (a card's icon is
// cached the first time it is shown, cache-first, at most 1,000 of them), the woff fonts (every
// browser that runs a service worker takes woff2) and the legacy-browser polyfills. Every other chunk
// is precached, also those only online pages load (the password strength dictionaries, about 1.5 MB):
// telling them apart would mean reading webpack's chunk graph, and a chunk's name carries its hash, so
// a new version downloads only the files that changed. Nothing else is cached: API requests go to another origin and are never answered by the worker.
//
// Query parameters never select a file of a static export, so they are ignored when a request is
// matched against the precache (/share?data=… is share.html). A navigation to a path that is not a
// page gets the export's 404 page with status 404, as from the server, online and offline (Workbox's
// navigateFallback would answer it with the cached 200, so a route of ours does it: `notFoundRoute`).
// A new version installs in the background and
// takes over once no tab runs the old one, or when a tab asks it to (the page offers a reload); until
// then the old files keep serving the old pages, so a page never mixes two builds.

/** The worker's file, at the root so that its scope is the whole app. */
export const serviceWorkerFile = 'sw.js';

// The cache names are declared once, in src/cache-names.json, which the app's storage declaration
// (src/storage.ts, what logout deletes) reads too.
const cacheNames = JSON.parse(readFileSync(new URL('../src/cache-names.json', import.meta.url), 'utf8'));

/** The runtime cache of the brand icons (written by scripts/brand-icons.mjs). */
export const brandIconsCache = /** @type {string} */ (cacheNames.brandIcons);

/** The prefix of the precache's name; Workbox names it `ente-auth-precache-v2-<scope>`. */
export const precachePrefix = /** @type {string} */ (cacheNames.precachePrefix);

/**
 * The route for navigations to a path that is no page (the precache route answers the pages first): the
 * precached 404.html with status 404. Both functions are written into sw.js as their source text, so they
 * use nothing but the worker's globals. The precache keeps 404.html under `/404.html?__WB_REVISION__=…`,
 * hence `ignoreSearch`; a worker whose cache lost it asks the server, which answers 404 itself.
 */
export const notFoundRoute = {
  /** @param {{ request: Request, url: URL, sameOrigin: boolean }} options */
  matches: ({ request, url, sameOrigin }) =>
    sameOrigin && request.mode === 'navigate' && !/^\/(?:_next|brand-icons)\//.test(url.pathname),
  /** @param {{ request: Request }} options */
  handler: async ({ request }) => {
    const cached = await caches.match('/404.html', { ignoreSearch: true });
    if (!cached) return fetch(request);
    return new Response(cached.body, { status: 404, statusText: 'Not Found', headers: cached.headers });
  },
};

/**
 * The generateSW options for an export folder.
 *
 * @param {string} outDir the app's out/ folder
 * @returns {import('workbox-build').GenerateSWOptions}
 */
export function serviceWorkerOptions(outDir) {
  return {
    globDirectory: outDir,
    globPatterns: ['**/*.{html,js,css,woff2,ico,svg,png,webp,json,webmanifest,wasm}'],
    globIgnores: ['brand-icons/*.svg', serviceWorkerFile, `${serviceWorkerFile}.map`, '**/polyfills-*.js'],
    // Next puts a content hash in every name under _next/static: no revision needed.
    dontCacheBustURLsMatching: /^_next\/static\//,
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
    swDest: path.join(outDir, serviceWorkerFile),
    inlineWorkboxRuntime: true,
    mode: 'production',
    sourcemap: false,
    disableDevLogs: true,
    cacheId: precachePrefix,
    cleanupOutdatedCaches: true,
    skipWaiting: false,
    clientsClaim: false,
    ignoreURLParametersMatching: [/./],
    runtimeCaching: [
      { urlPattern: notFoundRoute.matches, handler: notFoundRoute.handler },
      {
        urlPattern: ({ url, sameOrigin }) => sameOrigin && /^\/brand-icons\/[^/]+\.svg$/.test(url.pathname),
        handler: 'CacheFirst',
        options: {
          cacheName: brandIconsCache,
          expiration: { maxEntries: 1000, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true },
          cacheableResponse: { statuses: [200] },
        },
      },
    ],
  };
}

/**
 * Writes out/sw.js; resolves to what it precaches.
 *
 * @param {string} outDir
 */
export async function buildServiceWorker(outDir) {
  const { count, size, warnings } = await generateSW(serviceWorkerOptions(outDir));
  return { count, size, warnings };
}

async function main() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const outDir = path.resolve(process.argv[2] ?? path.join(here, '..', 'out'));
  const { count, size, warnings } = await buildServiceWorker(outDir);
  for (const warning of warnings) console.warn(warning);
  console.log(`service worker: ${serviceWorkerFile} precaches ${count} files, ${(size / 1024).toFixed(0)} KiB`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
