// Bundle-size benchmark: the JavaScript each route of each app makes the browser download on a first
// visit, raw and gzip, read from the static export. Prints JSON, then one summary line comparing
// auth /login with its budget, and says whether libsodium is part of /login's first load.
//   npm run bench                      (builds the apps first if their output is missing)
//   node bench/bundle-size.mjs --check (exit 1 when the budget is missed or libsodium is eager)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apps = ['auth', 'accounts', 'photos', 'cast'];
const budget = { app: 'auth', route: '/login', gzipBytes: 200_000 };
// Strings that only libsodium's bundle contains (names of its exported functions survive minifying).
const libsodiumMarkers = [
  'crypto_pwhash_OPSLIMIT',
  'crypto_secretstream_xchacha20poly1305_init_push',
  'sodium_version_string',
];

const check = process.argv.includes('--check');
await ensureBuilt();
const report = { generatedAt: new Date().toISOString(), unit: 'bytes; gzip = zlib level 6', apps: {} };
for (const app of apps) report.apps[app] = measureApp(app);

const target = report.apps[budget.app].routes[budget.route];
report.budget = {
  route: `${budget.app} ${budget.route}`,
  gzipBytes: target.gzipBytes,
  limitGzipBytes: budget.gzipBytes,
  withinBudget: target.gzipBytes < budget.gzipBytes,
  libsodiumInFirstLoad: target.libsodium,
  libsodiumLoadedLazilyFrom: report.apps[budget.app].libsodiumChunks,
};
mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
writeFileSync(path.join(root, 'bench', 'results', 'bundle-size.json'), JSON.stringify(report, null, 2));
console.log(JSON.stringify(report, null, 2));
console.log(
  `${budget.app} ${budget.route} first-load JS: ${kB(target.gzipBytes)} gzip (${kB(target.rawBytes)} raw) ` +
    `vs target < ${kB(budget.gzipBytes)} gzip: ${report.budget.withinBudget ? 'OK' : 'OVER BUDGET'}; ` +
    `libsodium ${target.libsodium ? 'IS' : 'is not'} in its first load` +
    (report.budget.libsodiumLoadedLazilyFrom.length
      ? ` (it is in lazily loaded ${report.budget.libsodiumLoadedLazilyFrom.join(', ')})`
      : ''),
);
if (check && (!report.budget.withinBudget || target.libsodium)) process.exit(1);

/**
 * Per route: the scripts its exported HTML loads (what a modern browser fetches before the page
 * runs: every <script src>, minus the nomodule polyfills only old browsers load). The build
 * manifest names the routes and the chunks of each; both are checked to agree.
 */
function measureApp(app) {
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
    const files = scripts.map((src) => ({ src, ...sizeOf(src) }));
    const styles = stylesheets(page).map((href) => sizeOf(href));
    routes[route] = {
      files: files.length,
      rawBytes: sum(files, 'rawBytes'),
      gzipBytes: sum(files, 'gzipBytes'),
      libsodium: files.some((file) => file.libsodium),
      css: { rawBytes: sum(styles, 'rawBytes'), gzipBytes: sum(styles, 'gzipBytes') },
    };
  }

  // Every chunk of the app, to find where libsodium went if not into a first load.
  const chunkDir = path.join(appDir, 'out', '_next', 'static', 'chunks');
  const libsodiumChunks = listFiles(chunkDir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => `/${path.relative(path.join(appDir, 'out'), file)}`)
    .filter((file) => sizeOf(file).libsodium)
    .map((file) => `${file} (${kB(sizeOf(file).gzipBytes)} gzip)`);
  return { routes, libsodiumChunks };
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
  const { localBuildEnv } = await import('../scripts/start.mjs');
  console.error(`Building ${missing.join(', ')} first…`);
  const result = spawnSync(
    path.join(root, 'node_modules', '.bin', 'turbo'),
    ['run', 'build', ...missing.map((app) => `--filter=@ente/app-${app}`), '--output-logs=errors-only'],
    {
      cwd: root,
      stdio: ['ignore', process.stderr, process.stderr], // stdout is for the JSON
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TURBO_TELEMETRY_DISABLED: '1', ...localBuildEnv() },
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function sum(items, key) {
  return items.reduce((total, item) => total + item[key], 0);
}

function kB(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`;
}
