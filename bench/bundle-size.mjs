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
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { chromium } from '@playwright/test';

import { serveStatic } from '../scripts/serve-static.mjs';
import { chromiumPath } from '../scripts/setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apps = ['auth', 'accounts', 'photos', 'cast'];
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
};
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
const target = report.apps[budget.app].routes[budget.route].firstLoad;
report.budget = {
  limitGzipBytes: budget.gzipBytes,
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
  console.log(
    `${route.name.padEnd(30)} ${kib(route.firstLoad.gzipBytes).padStart(6)}  ` +
      `${kib(route.afterInteraction.gzipBytes).padStart(6)}${libraries}`,
  );
}
console.log(`\n${budget.app} ${budget.route}, script by script (KiB gzip, raw):`);
for (const file of target.scripts) {
  const size = report.apps[budget.app].scripts[file];
  console.log(`${kib(size.gzipBytes).padStart(6)} ${kib(size.rawBytes).padStart(7)}  ${file}`);
}
for (const route of overBudget) console.log(`OVER BUDGET: ${route.name} ${KiB(route.firstLoad.gzipBytes)} gzip`);
for (const library of libraryNames) {
  if (eager[library].length) console.log(`EAGER ${library}: in the first load of ${eager[library].join(', ')}`);
}
for (const route of missingRoutes) console.log(`MISSING sign-in route: ${route}`);
for (const route of withErrors) console.log(`PAGE ERROR on ${route.name}: ${route.pageErrors.join(' | ')}`);
console.log(
  `${budget.app} ${budget.route} first-load JS: ${KiB(target.gzipBytes)} gzip (${KiB(target.rawBytes)} raw, ` +
    `${target.files} scripts); largest: ${report.budget.largestFirstLoad}; ` +
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
      firstLoad: figures(visit.firstLoad),
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
      firstLoad: figures(visit.firstLoad),
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
 * until the network is idle plus a quiet period (`firstLoad`), then all those fetched by the time the
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
  const network = trackNetwork(context);

  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(idleSettleMs);
  await network.quiet();
  const firstLoad = [...fetched].sort();

  await page.mouse.move(20, 20);
  await page.mouse.move(60, 40);
  await page.keyboard.press('Shift');
  await page.waitForTimeout(idleSettleMs);
  await network.quiet();
  const afterInteraction = [...fetched].sort();

  await context.close();
  return { firstLoad, afterInteraction, pageErrors, ...(api && { apiRequests }) };
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
