// Bundle-size benchmark: the JavaScript each route of each app makes the browser download on a first
// visit, gzip and raw. Two figures per route: `html`, the scripts of the exported HTML (what runs before
// the page does), and `firstLoad`, every script Chromium fetches on a fresh visit until the network is
// idle, idle-time prefetches included (the figure the budget applies to). Prints JSON, then one line per
// route over budget (or none), the auth /login figure, and whether libsodium is part of any first load.
//   npm run bench                      (builds the apps first if their output is missing)
//   node bench/bundle-size.mjs --check (exit 1 when a route is over budget or libsodium is eager)
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
/** How long to keep watching after the network is first idle: the shell fetches deferred code when idle (3 s at most). */
const idleSettleMs = 3500;
// Strings that only libsodium's bundle contains (names of its exported functions survive minifying).
const libsodiumMarkers = [
  'crypto_pwhash_OPSLIMIT',
  'crypto_secretstream_xchacha20poly1305_init_push',
  'sodium_version_string',
];

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
const eager = allRoutes.filter((route) => route.firstLoad.libsodium);
const target = report.apps[budget.app].routes[budget.route].firstLoad;
report.budget = {
  limitGzipBytes: budget.gzipBytes,
  largestFirstLoad: allRoutes.reduce((a, b) => (b.firstLoad.gzipBytes > a.firstLoad.gzipBytes ? b : a)).name,
  overBudget: overBudget.map((route) => route.name),
  libsodiumInFirstLoad: eager.map((route) => route.name),
  libsodiumLoadedLazilyFrom: report.apps[budget.app].libsodiumChunks,
};
mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
writeFileSync(path.join(root, 'bench', 'results', 'bundle-size.json'), JSON.stringify(report, null, 2));
console.log(JSON.stringify(report, null, 2));
for (const route of overBudget) console.log(`OVER BUDGET: ${route.name} ${KiB(route.firstLoad.gzipBytes)} gzip`);
console.log(
  `${budget.app} ${budget.route} first-load JS: ${KiB(target.gzipBytes)} gzip (${KiB(target.rawBytes)} raw, ` +
    `${target.files} scripts); largest: ${report.budget.largestFirstLoad}; ` +
    `${overBudget.length} of ${allRoutes.length} routes at or over ${KiB(budget.gzipBytes)} gzip; ` +
    `libsodium ${eager.length ? `IS in the first load of ${eager.map((r) => r.name).join(', ')}` : 'is in no first load'}`,
);
if (check && (overBudget.length > 0 || eager.length > 0)) process.exit(1);

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
        libsodium: libsodiumMarkers.some((marker) => text.includes(marker)),
      });
    }
    return sizes.get(file);
  };

  const server = await serveStatic({ root: path.join(appDir, 'out') });
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
    routes[route] = {
      html: totals(scripts.map(sizeOf)),
      firstLoad: totals((await scriptsOfFreshVisit(`${server.url}${route}`)).map(sizeOf)),
      css: { rawBytes: sum(styles, 'rawBytes'), gzipBytes: sum(styles, 'gzipBytes') },
    };
  }
  await server.close();

  // Every chunk of the app, to find where libsodium went if not into a first load.
  const chunkDir = path.join(appDir, 'out', '_next', 'static', 'chunks');
  const libsodiumChunks = listFiles(chunkDir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => `/${path.relative(path.join(appDir, 'out'), file)}`)
    .filter((file) => sizeOf(file).libsodium)
    .map((file) => `${file} (${KiB(sizeOf(file).gzipBytes)} gzip)`);
  return { routes, libsodiumChunks };
}

/** The paths of every script (workers too) a fresh browser context fetches for `url` until it is idle. */
async function scriptsOfFreshVisit(url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const fetched = new Set();
  const record = (response) => {
    const { pathname, origin } = new URL(response.url());
    if (origin === new URL(url).origin && pathname.endsWith('.js')) fetched.add(pathname);
  };
  page.on('response', record);
  context.on('response', record); // worker scripts
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(idleSettleMs);
  await page.waitForLoadState('networkidle');
  await context.close();
  return [...fetched].sort();
}

function totals(files) {
  return {
    files: files.length,
    rawBytes: sum(files, 'rawBytes'),
    gzipBytes: sum(files, 'gzipBytes'),
    libsodium: files.some((file) => file.libsodium),
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

function KiB(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
