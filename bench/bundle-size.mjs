// Bundle-size benchmark: the JavaScript each route of each app makes the browser download on a first
// visit, gzip and raw. Per route: `html`, the scripts of the exported HTML (what runs before the page
// does); `firstLoad`, every script Chromium fetches on a fresh visit until the network is idle,
// idle-time prefetches included (the figure the budget applies to); and `afterInteraction`, what has
// been fetched once the visitor then moves the pointer and presses a key (code deferred until someone
// uses the page; for information). It also tells whether the heavy libraries that must load lazily
// (libsodium, the password strength estimator, the QR code drawer) are part of any first load.
// Prints JSON, then a table of the routes, the routes over budget, and a summary line.
//   npm run bench                      (builds the apps first if their output is missing)
//   node bench/bundle-size.mjs --check (exit 1 when a route is at or over budget, a heavy library is in a
//                                       first load, a sign-in route is missing, or a page threw)
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { chromium } from '@playwright/test';
import { tsImport } from 'tsx/esm/api';

import { serveStatic } from '../scripts/serve-static.mjs';
import { chromiumPath } from '../scripts/setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const allApps = ['auth', 'accounts', 'photos', 'cast'];
/** `--app photos` (or `--app auth,photos`) measures those apps only, for a quicker look at one. */
const appOption = process.argv.indexOf('--app');
const apps = appOption < 0 ? allApps : process.argv[appOption + 1].split(',');
const unknownApps = apps.filter((app) => !allApps.includes(app));
if (unknownApps.length) throw new Error(`unknown --app ${unknownApps.join(', ')}`);
/** Every route's first-load JS stays under this (gzip); auth /login is the route the summary names. */
const budget = { app: 'auth', route: '/login', gzipBytes: 200 * 1024 };
/** The sign-in routes every app serves (docs/product.md#routes); a build without one of them fails --check. */
const signInRoutes = [
  '/login',
  '/signup',
  '/verify',
  '/credentials',
  '/generate',
  '/recover',
  '/change-email',
  '/change-password',
  '/two-factor/setup',
  '/two-factor/verify',
  '/two-factor/recover',
  '/passkeys/finish',
  '/passkeys/recover',
];
/**
 * Routes measured a second time in the state a person meets them, under their own names, with the
 * budget applying to them too. The static server has no API, so the bench answers the requests these
 * visits make (every request to another origin: the API), by method and path; anything else is a 404.
 * - accounts `/passkeys (with a token)`: opened from an app's settings, the token in the address's fragment,
 *   listing one passkey (a signed-out visit without a token goes on to /login: the plain `/passkeys`).
 * - accounts `/passkeys/verify (a sign-in)`: sent by an app with a sign-in to check; begin answers, and
 *   the browser's passkey prompt (no authenticator here) fails or waits, as on a device without one.
 * - photos `/shared-albums (a password link)` and `/shared-albums (an album)`: a public album's link opened by
 *   someone without an account (publicAlbumVisits): the password form, and an album that opens to its grid of
 *   thumbnails.
 * An answer is JSON, or bytes (a Uint8Array, sent as application/octet-stream).
 */
const passkeySessionID = 'c2Vzc2lvbiBvZiB0aGlydHktdHdvIGJ5dGVzIC4uLi4uLi4=';
const inUse = {
  accounts: [
    {
      name: '/passkeys (with a token)',
      path: '/passkeys#token=acc2.7.4102444800000000.3q2-7wGBo1xH8YQ0r6fMq2vVbWcT4zNdKsUeJiLpA9k.Tg95LCF_4ZqPNSkbRNf5wr_qnwMZtoKKAZGg--k4y6g',
      api: {
        'GET /passkeys': {
          accountsUrl: '',
          passkeys: [
            {
              id: '6f1c2a7e-0d7b-4c6e-8a3e-2f9b1d4c5a60',
              userID: 7,
              friendlyName: 'YubiKey',
              createdAt: 1767614400000000,
              lastUsedAt: 1795176000000000,
            },
          ],
        },
      },
    },
    {
      name: '/passkeys/verify (a sign-in)',
      path: (origin) =>
        `/passkeys/verify?${new URLSearchParams({
          clientPackage: 'io.ente.auth.web',
          passkeySessionID,
          redirect: `${origin}/passkeys/finish`,
          recover: `${origin}/passkeys/recover`,
        })}`,
      api: {
        'POST /users/two-factor/passkeys/begin': {
          options: {
            publicKey: {
              challenge: 'Y2hhbGxlbmdlIG9mIHRoaXJ0eS10d28gYnl0ZXMgLi4uLg',
              timeout: 120000,
              rpId: 'localhost',
              allowCredentials: [{ type: 'public-key', id: 'Y3JlZGVudGlhbA', transports: ['internal'] }],
              userVerification: 'preferred',
            },
          },
          ceremonySessionID: '9a3f6c1e-2b4d-4e8f-a1c3-5d7e9f0b2c4d',
        },
      },
    },
  ],
  // The album is made only when the photos app is measured (it loads libsodium and encrypts).
  photos: apps.includes('photos') ? await publicAlbumVisits() : [],
};
/**
 * The visits to a public album's link: `/shared-albums?t=<token>#<album key in base58>`, as the owner's app writes
 * it. The album is real ciphertext, made here with @ente/crypto (libsodium) as an owner's app makes it
 * (docs/protocol.md#photos-client-encryption):
 * its name in a secretbox under the album key; two photos, each with a file key in a secretbox under the album
 * key, its metadata and its thumbnail (small JPEGs of e2e's fixtures) each one FINAL secretstream message under
 * the file key. The password link is the same album behind a password (Argon2id parameters in its `publicURLs`):
 * the visit stops at the form, as a visitor does before typing.
 */
async function publicAlbumVisits() {
  // The crypto package is TypeScript: loaded through tsx, so that this script still runs with plain node.
  const {
    encryptBlobB64,
    encryptBoxB64,
    fromB64,
    generateKeyB64,
    utf8Bytes,
    INTERACTIVE_MEM_LIMIT,
    INTERACTIVE_OPS_LIMIT,
  } = await tsImport('@ente/crypto', import.meta.url);
  // The key in the fragment as the owner's app writes it.
  const { base58 } = await tsImport('../apps/photos/src/library/link-url.ts', import.meta.url);
  const albumKey = await generateKeyB64();
  const name = await encryptBoxB64(utf8Bytes('Summer'), albumKey);
  const ownerID = 1;
  const collectionID = 10;
  const now = Date.now() * 1000;
  const fixtures = path.join(root, 'e2e', 'fixtures', 'photos');
  const photos = ['sunset-exif-gps.jpg', 'portrait-orientation-6.jpg'];
  const api = {};
  const diff = [];
  for (const [i, title] of photos.entries()) {
    const id = 100 + i;
    const fileKey = await generateKeyB64();
    const boxedKey = await encryptBoxB64(fileKey, albumKey);
    const jpeg = readFileSync(path.join(fixtures, title));
    const creationTime = now - (i + 1) * 86_400_000_000;
    const metadata = await encryptBlobB64(
      utf8Bytes(JSON.stringify({ title, creationTime, modificationTime: creationTime, fileType: 0 })),
      fileKey,
    );
    const thumbnail = await encryptBlobB64(jpeg, fileKey);
    const file = await encryptBlobB64(jpeg, fileKey);
    const thumbnailBytes = fromB64(thumbnail.encryptedData);
    const fileSize = fromB64(file.encryptedData).length;
    api[`GET /public-collection/files/preview/${id}`] = thumbnailBytes;
    diff.push({
      id,
      ownerID,
      collectionID,
      collectionOwnerID: ownerID,
      encryptedKey: boxedKey.encryptedData,
      keyDecryptionNonce: boxedKey.nonce,
      file: { decryptionHeader: file.header, size: fileSize },
      thumbnail: { decryptionHeader: thumbnail.header, size: thumbnailBytes.length },
      metadata: { encryptedData: metadata.encryptedData, decryptionHeader: metadata.header, size: 0 },
      isDeleted: false,
      updationTime: now - i,
      info: { fileSize, thumbSize: thumbnailBytes.length },
    });
  }
  const info = (link) => ({
    collection: {
      id: collectionID,
      owner: { id: ownerID, email: '', name: '', role: 'OWNER' },
      encryptedKey: '',
      name: '',
      encryptedName: name.encryptedData,
      nameDecryptionNonce: name.nonce,
      type: 'album',
      attributes: { version: 1 },
      sharees: [],
      publicURLs: [{ enableDownload: true, enableCollect: false, enableComment: false, enableJoin: false, ...link }],
      updationTime: now,
      app: 'photos',
    },
    referralCode: '',
  });
  const linkPath = `/shared-albums?t=bench7Tok3n#${base58(fromB64(albumKey))}`;
  return [
    {
      name: '/shared-albums (a password link)',
      path: linkPath,
      api: {
        'GET /public-collection/info': info({
          passwordEnabled: true,
          nonce: randomBytes(16).toString('base64'),
          opsLimit: INTERACTIVE_OPS_LIMIT,
          memLimit: INTERACTIVE_MEM_LIMIT,
        }),
      },
    },
    {
      name: '/shared-albums (an album)',
      path: linkPath,
      api: {
        'GET /public-collection/info': info({ passwordEnabled: false }),
        'GET /public-collection/diff': { diff, hasMore: false },
        ...api,
      },
    },
  ];
}

/** How long to keep watching after the network is first idle: the shell may fetch deferred code when idle. */
const idleSettleMs = 3500;
/** The network counts as idle after this long without a request in flight. */
const quietMs = 500;
/**
 * Libraries that must never be part of a first load, each recognised by strings that only its code
 * contains and that survive minifying (names of exported functions, error messages, dictionary names).
 * A script holding any one of a library's markers holds that library.
 */
const heavyLibraries = {
  // libsodium-wrappers-sumo: names of its exported functions and constants.
  libsodium: ['crypto_pwhash_OPSLIMIT', 'crypto_secretstream_xchacha20poly1305_init_push', 'sodium_version_string'],
  // @zxcvbn-ts/core (its option checks) and its dictionaries (@zxcvbn-ts/language-common, -en).
  passwordStrength: [
    'l33tMaxSubstitutions must be a non-negative number',
    'useLevenshteinDistance must be a boolean',
    'passwords-common',
    'commonWords-en',
  ],
  // qrcode: error messages of its encoder.
  qrCode: [
    'Invalid QR Code version',
    'The amount of data is too big to be stored in a QR Code',
    'BitMatrix size must be defined and greater than 0',
  ],
};
const libraryNames = Object.keys(heavyLibraries);
/** The photos visits whose scripts the summary lists one by one. */
const linkedVisits = inUse.photos.map((visit) => visit.name);

const check = process.argv.includes('--check');
await ensureBuilt();
const report = { generatedAt: new Date().toISOString(), unit: 'bytes; gzip = zlib level 6', apps: {} };
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const app of apps) report.apps[app] = await measureApp(app);
} finally {
  await browser.close();
}

const allRoutes = apps.flatMap((app) =>
  Object.entries(report.apps[app].routes).map(([route, figures]) => ({ name: `${app} ${route}`, ...figures })),
);
const overBudget = allRoutes.filter((route) => route.firstLoad.gzipBytes >= budget.gzipBytes);
const eager = Object.fromEntries(
  libraryNames.map((library) => [
    library,
    allRoutes.filter((route) => route.firstLoad.libraries.includes(library)).map((route) => route.name),
  ]),
);
const eagerCount = libraryNames.reduce((count, library) => count + eager[library].length, 0);
const missingRoutes = apps.flatMap((app) =>
  signInRoutes.filter((route) => !report.apps[app].routes[route]).map((route) => `${app} ${route}`),
);
const withErrors = allRoutes.filter((route) => route.pageErrors.length > 0);
const target = report.apps[budget.app]?.routes[budget.route].firstLoad;
report.budget = {
  limitGzipBytes: budget.gzipBytes,
  ...(apps.length < allApps.length && { appsMeasured: apps }),
  largestFirstLoad: allRoutes.reduce((a, b) => (b.firstLoad.gzipBytes > a.firstLoad.gzipBytes ? b : a)).name,
  overBudget: overBudget.map((route) => route.name),
  heavyLibrariesInFirstLoad: eager,
  missingSignInRoutes: missingRoutes,
  routesWithPageErrors: withErrors.map((route) => route.name),
};
mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
writeFileSync(path.join(root, 'bench', 'results', 'bundle-size.json'), JSON.stringify(report, null, 2));
console.log(JSON.stringify(report, null, 2));

console.log(`\nfirst-load JS per route (KiB gzip; budget < ${KiB(budget.gzipBytes)}), then after an interaction:`);
for (const route of allRoutes) {
  const libraries = route.firstLoad.libraries.length ? `  WITH ${route.firstLoad.libraries.join(', ')}` : '';
  const { pageScripts, workerScripts } = route.firstLoad;
  const split = workerScripts.files
    ? `  (page ${kib(pageScripts.gzipBytes)} + workers ${kib(workerScripts.gzipBytes)})`
    : '';
  console.log(
    `${route.name.padEnd(36)} ${kib(route.firstLoad.gzipBytes).padStart(6)}  ` +
      `${kib(route.afterInteraction.gzipBytes).padStart(6)}${split}${libraries}`,
  );
}
const scriptByScript = (app, name, { scripts, workerScripts }) => {
  console.log(`\n${app} ${name}, script by script (KiB gzip, raw; W: fetched by a worker):`);
  for (const file of scripts) {
    const size = report.apps[app].scripts[file];
    const by = workerScripts.scripts.includes(file) ? 'W' : ' ';
    console.log(`${kib(size.gzipBytes).padStart(6)} ${kib(size.rawBytes).padStart(7)} ${by} ${file}`);
  }
};
if (target) scriptByScript(budget.app, budget.route, target);
for (const route of linkedVisits) {
  const measured = report.apps.photos?.routes[route];
  if (measured) scriptByScript('photos', route, measured.firstLoad);
}
for (const route of overBudget) console.log(`OVER BUDGET: ${route.name} ${KiB(route.firstLoad.gzipBytes)} gzip`);
for (const library of libraryNames) {
  if (eager[library].length) console.log(`EAGER ${library}: in the first load of ${eager[library].join(', ')}`);
}
for (const route of missingRoutes) console.log(`MISSING sign-in route: ${route}`);
for (const route of withErrors) console.log(`PAGE ERROR on ${route.name}: ${route.pageErrors.join(' | ')}`);
console.log(
  (target
    ? `${budget.app} ${budget.route} first-load JS: ${KiB(target.gzipBytes)} gzip (${KiB(target.rawBytes)} raw, ` +
      `${target.files} scripts); `
    : '') +
    `largest: ${report.budget.largestFirstLoad}; ` +
    `${overBudget.length} of ${allRoutes.length} routes at or over ${KiB(budget.gzipBytes)} gzip; ` +
    libraryNames
      .map(
        (library) => `${library} ${eager[library].length ? `IS in ${eager[library].length} first loads` : 'in none'}`,
      )
      .join(', '),
);
const failed = overBudget.length > 0 || eagerCount > 0 || missingRoutes.length > 0 || withErrors.length > 0;
if (check && failed) process.exit(1);

/**
 * Per route: the scripts its exported HTML loads (every <script src>, minus the nomodule polyfills only
 * old browsers load), checked against the build manifest, and every script a fresh visit fetches.
 */
async function measureApp(app) {
  const appDir = path.join(root, 'apps', app);
  const manifest = JSON.parse(readFileSync(path.join(appDir, '.next', 'build-manifest.json'), 'utf8'));
  const sizes = new Map();
  const sizeOf = (file) => {
    if (!sizes.has(file)) {
      const bytes = readFileSync(path.join(appDir, 'out', file));
      const text = bytes.toString('latin1');
      sizes.set(file, {
        rawBytes: bytes.length,
        gzipBytes: gzipSync(bytes, { level: 6 }).length,
        libraries: libraryNames.filter((library) => heavyLibraries[library].some((marker) => text.includes(marker))),
      });
    }
    return sizes.get(file);
  };
  const figures = (files) => ({ scripts: files, ...totals(files.map(sizeOf)) });
  /** A first load's figures, and those of the page's scripts and of the workers' (which the total counts too). */
  const firstLoadFigures = (files, byWorkers) => ({
    ...figures(files),
    pageScripts: figures(files.filter((file) => !byWorkers.includes(file))),
    workerScripts: figures(files.filter((file) => byWorkers.includes(file))),
  });

  // Served as `npm start` serves it: its CSP lets it reach the API origin it was built for.
  const { localBuildEnv } = await import('../scripts/start.mjs');
  const server = await serveStatic({
    root: path.join(appDir, 'out'),
    apiOrigins: [localBuildEnv().NEXT_PUBLIC_ENTE_ENDPOINT],
  });
  const routes = {};
  for (const route of Object.keys(manifest.pages).sort()) {
    if (route === '/_app' || route === '/_error') continue;
    const html = path.join(appDir, 'out', route === '/' ? 'index.html' : `${route.slice(1)}.html`);
    if (!existsSync(html)) continue;
    const page = readFileSync(html, 'utf8');
    const scripts = firstLoadScripts(page);
    const expected = [...manifest.pages['/_app'], ...manifest.pages[route]]
      .filter((file) => file.endsWith('.js'))
      .map((file) => `/_next/${file}`);
    const missing = expected.filter((file) => !scripts.includes(file));
    if (missing.length) throw new Error(`${app} ${route}: the HTML does not load ${missing.join(', ')}`);
    const styles = stylesheets(page).map((href) => sizeOf(href));
    const visit = await freshVisit(`${server.url}${route}`);
    routes[route] = {
      html: figures(scripts),
      firstLoad: firstLoadFigures(visit.firstLoad, visit.workerScripts),
      afterInteraction: figures(visit.afterInteraction),
      css: { rawBytes: sum(styles, 'rawBytes'), gzipBytes: sum(styles, 'gzipBytes') },
      pageErrors: visit.pageErrors,
    };
  }
  for (const scenario of inUse[app] ?? []) {
    const where = typeof scenario.path === 'function' ? scenario.path(server.url) : scenario.path;
    const visit = await freshVisit(`${server.url}${where}`, scenario.api);
    // A visit that never asked the API what the state needs did not measure that state.
    const unasked = Object.keys(scenario.api).filter((key) => !visit.apiRequests.includes(key));
    if (unasked.length) visit.pageErrors.push(`the visit never requested ${unasked.join(', ')}`);
    routes[scenario.name] = {
      firstLoad: firstLoadFigures(visit.firstLoad, visit.workerScripts),
      afterInteraction: figures(visit.afterInteraction),
      pageErrors: visit.pageErrors,
      apiRequests: visit.apiRequests,
    };
  }
  await server.close();

  // Every chunk of the app, to find where the heavy libraries went if not into a first load.
  const chunkDir = path.join(appDir, 'out', '_next', 'static', 'chunks');
  const chunks = listFiles(chunkDir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => `/${path.relative(path.join(appDir, 'out'), file).split(path.sep).join('/')}`);
  const heavyLibraryChunks = Object.fromEntries(
    libraryNames.map((library) => [
      library,
      chunks
        .filter((file) => sizeOf(file).libraries.includes(library))
        .map((file) => `${file} (${KiB(sizeOf(file).gzipBytes)} gzip)`),
    ]),
  );
  const fetched = new Set(Object.values(routes).flatMap((figure) => figure.afterInteraction.scripts));
  const scripts = Object.fromEntries(
    [...fetched].sort().map((file) => {
      const { rawBytes, gzipBytes } = sizeOf(file);
      return [file, { rawBytes, gzipBytes }];
    }),
  );
  return { routes, heavyLibraryChunks, scripts };
}

/**
 * Opens `url` in a fresh browser context and returns the paths of the scripts (workers too) fetched
 * until the network is idle plus a quiet period (`firstLoad`; those fetched by a worker also in `workerScripts`), then all those fetched by the time the
 * network is idle again after a pointer move and a key press (`afterInteraction`), and the page's
 * uncaught errors. With `api`, requests to other origins are answered from it (`"METHOD /path"` → JSON
 * body; CORS allowed) and listed in `apiRequests`.
 */
async function freshVisit(url, api) {
  const context = await browser.newContext();
  const apiRequests = [];
  if (api) {
    const own = new URL(url).origin;
    await context.route(
      (target) => target.origin !== own,
      (route) => {
        const request = route.request();
        const cors = {
          'Access-Control-Allow-Origin': own,
          'Access-Control-Allow-Headers': request.headers()['access-control-request-headers'] ?? '*',
          'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
        };
        if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
        const key = `${request.method()} ${new URL(request.url()).pathname}`;
        apiRequests.push(key);
        const body = api[key];
        if (body instanceof Uint8Array) {
          return route.fulfill({
            status: 200,
            headers: { ...cors, 'Content-Type': 'application/octet-stream' },
            body: Buffer.from(body),
          });
        }
        return route.fulfill({ status: body ? 200 : 404, headers: cors, json: body ?? {} });
      },
    );
  }
  const page = await context.newPage();
  const fetched = new Set();
  const pageErrors = [];
  const record = (response) => {
    const { pathname, origin } = new URL(response.url());
    if (origin === new URL(url).origin && pathname.endsWith('.js')) fetched.add(pathname);
  };
  page.on('response', record);
  context.on('response', record); // worker scripts
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // What the page itself requested: Chromium reports a dedicated worker's requests on the worker's own target,
  // not the page's, so a script fetched only by a worker is missing here. A worker's entry script is a worker's too.
  const byPage = new Set();
  const workerEntries = new Set();
  const cdp = await context.newCDPSession(page);
  cdp.on('Network.requestWillBeSent', (event) => byPage.add(new URL(event.request.url).pathname));
  await cdp.send('Network.enable');
  page.on('worker', (worker) => workerEntries.add(new URL(worker.url()).pathname));
  const workerScripts = () => [...fetched].filter((file) => workerEntries.has(file) || !byPage.has(file)).sort();
  const network = trackNetwork(context);

  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(idleSettleMs);
  await network.quiet();
  const firstLoad = [...fetched].sort();
  const workerScriptsOfFirstLoad = workerScripts();

  await page.mouse.move(20, 20);
  await page.mouse.move(60, 40);
  await page.keyboard.press('Shift');
  await page.waitForTimeout(idleSettleMs);
  await network.quiet();
  const afterInteraction = [...fetched].sort();

  await context.close();
  return {
    firstLoad,
    workerScripts: workerScriptsOfFirstLoad,
    afterInteraction,
    pageErrors,
    ...(api && { apiRequests }),
  };
}

/** Counts the context's requests in flight; `quiet()` resolves once none has been for `quietMs`. */
function trackNetwork(context) {
  let inFlight = 0;
  let lastChange = Date.now();
  const change = (delta) => () => {
    inFlight += delta;
    lastChange = Date.now();
  };
  context.on('request', change(1));
  context.on('requestfinished', change(-1));
  context.on('requestfailed', change(-1));
  return {
    async quiet() {
      while (inFlight > 0 || Date.now() - lastChange < quietMs) await new Promise((resolve) => setTimeout(resolve, 50));
    },
  };
}

function totals(files) {
  return {
    files: files.length,
    rawBytes: sum(files, 'rawBytes'),
    gzipBytes: sum(files, 'gzipBytes'),
    libraries: libraryNames.filter((library) => files.some((file) => file.libraries.includes(library))),
  };
}

function firstLoadScripts(html) {
  const scripts = [];
  for (const match of html.matchAll(/<script\b([^>]*)>/gi)) {
    const attributes = match[1] ?? '';
    const src = /\bsrc="([^"]+)"/i.exec(attributes)?.[1];
    if (!src || /\bnomodule\b/i.test(attributes)) continue;
    scripts.push(src.split('?')[0]);
  }
  return [...new Set(scripts)];
}

function stylesheets(html) {
  const hrefs = [];
  for (const match of html.matchAll(/<link\b([^>]*)>/gi)) {
    const attributes = match[1] ?? '';
    const href = /\bhref="([^"]+)"/i.exec(attributes)?.[1];
    if (href && /\brel="stylesheet"/i.test(attributes)) hrefs.push(href.split('?')[0]);
  }
  return [...new Set(hrefs)];
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

async function ensureBuilt() {
  const missing = apps.filter(
    (app) =>
      !existsSync(path.join(root, 'apps', app, '.next', 'build-manifest.json')) ||
      !existsSync(path.join(root, 'apps', app, 'out', 'index.html')),
  );
  if (!missing.length) return;
  const [{ localBuildEnv }, { quietEnv }] = await Promise.all([
    import('../scripts/start.mjs'),
    import('../scripts/config.mjs'),
  ]);
  console.error(`Building ${missing.join(', ')} first…`);
  const result = spawnSync(
    path.join(root, 'node_modules', '.bin', 'turbo'),
    ['run', 'build', ...missing.map((app) => `--filter=@ente/app-${app}`), '--output-logs=errors-only'],
    {
      cwd: root,
      stdio: ['ignore', process.stderr, process.stderr], // stdout is for the JSON
      env: { ...quietEnv, ...localBuildEnv() },
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function sum(items, key) {
  return items.reduce((total, item) => total + item[key], 0);
}

function kib(bytes) {
  return (bytes / 1024).toFixed(1);
}

function KiB(bytes) {
  return `${kib(bytes)} KiB`;
}
