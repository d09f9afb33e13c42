// `npm start`: the whole local stack from a fresh clone. Installs the dependencies if needed, builds
// the four apps and the API server (turbo skips what is already built), starts the built server
// (apps/server/dist, plain JavaScript) with its embedded database, serves each app's static export at
// its own origin, and stops everything on Ctrl-C or when any part dies. The browser tests start the stack through startStack() below, the same path.
//   npm start                      # photos :3000, accounts :3001, auth :3003, cast :3004, server :8080
//   node scripts/start.mjs --no-build --data-dir /tmp/ente-data
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { quietEnv, stackOverrides } from './config.mjs';
import { serveStatic } from './serve-static.mjs';
import { ensureDependencies, root } from './setup.mjs';

/** The apps in the order they are listed, and where they live. */
export const appNames = /** @type {const} */ (['photos', 'accounts', 'auth', 'cast']);

/** @typedef {{ photos: number, accounts: number, auth: number, cast: number, server: number }} Ports */

/** @type {Ports} */
export const defaultPorts = { photos: 3000, accounts: 3001, auth: 3003, cast: 3004, server: 8080 };

/** How a browser addresses a local service (the apps are built and CORS-configured with these). */
export function localUrl(port) {
  return `http://localhost:${port}`;
}

/**
 * The build settings of the local stack: the apps talk to the local server, passkeys go to the local
 * accounts app, and the accounts app sends people back only to the local apps. Each can be overridden from the environment. Turbo keys its build cache on
 * these values (turbo.json build.env), so every caller that builds for the local stack must pass
 * exactly these, or it gets (or leaves behind) a build for another server.
 *
 * @param {Record<string, string | undefined>} [env]
 * @param {Ports} [ports]
 */
export function localBuildEnv(env = stackOverrides, ports = defaultPorts) {
  return {
    NEXT_PUBLIC_ENTE_ENDPOINT: env.NEXT_PUBLIC_ENTE_ENDPOINT || localUrl(ports.server),
    NEXT_PUBLIC_ENTE_ACCOUNTS_URL: env.NEXT_PUBLIC_ENTE_ACCOUNTS_URL || localUrl(ports.accounts),
    NEXT_PUBLIC_ENTE_CAST_URL: env.NEXT_PUBLIC_ENTE_CAST_URL || localUrl(ports.cast),
    NEXT_PUBLIC_ENTE_APP_ORIGINS: env.NEXT_PUBLIC_ENTE_APP_ORIGINS || appOrigins(ports),
  };
}

/**
 * The origin browsers reach the server's S3-compatible object store at (for the apps' CSP), or
 * undefined for the embedded store, which is the API's origin. As the AWS SDK builds its URLs:
 * ENDPOINT/BUCKET path-style, BUCKET.ENDPOINT otherwise, AWS's regional endpoint without S3_ENDPOINT.
 *
 * @param {Record<string, string | undefined>} env
 */
export function objectStoreOrigin(env) {
  if (!env.S3_BUCKET) return undefined;
  const pathStyle = ['1', 'true', 'yes'].includes(env.S3_FORCE_PATH_STYLE ?? '');
  const endpoint = new URL(env.S3_ENDPOINT || `https://s3.${env.S3_REGION || 'us-east-1'}.amazonaws.com`);
  return pathStyle ? endpoint.origin : `${endpoint.protocol}//${env.S3_BUCKET}.${endpoint.host}`;
}

/**
 * Starts the server and the four apps; resolves once all of them answer.
 *
 * @param {object} [options]
 * @param {Partial<Ports>} [options.ports]
 * @param {string} [options.dataDir] the server's PGlite folder (default: its own ./data)
 * @param {boolean} [options.build] build the apps first (default true; turbo's cache makes it cheap). The
 *   server is built either way: it takes a second, and a stale dist/ would run yesterday's server.
 * @param {(line: string) => void} [options.onServerOutput] each line the server prints
 * @param {(reason: string) => void} [options.onUnexpectedExit] called once if the server dies while running
 * @param {Record<string, string | undefined>} [options.env] where overrides are read from
 * @param {Record<string, string>} [options.serverEnv] extra settings of the server (tests only, e.g. rate limits)
 * @returns {Promise<{ urls: Record<keyof Ports, string>, buildEnv: Record<string, string>, stop: () => Promise<void> }>}
 */
export async function startStack(options = {}) {
  const env = options.env ?? stackOverrides;
  const ports = { ...defaultPorts, ...options.ports };
  const buildEnv = localBuildEnv(env, ports);
  const urls = /** @type {Record<keyof Ports, string>} */ (
    Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, localUrl(port)]))
  );

  await ensurePortsFree(Object.entries(ports));
  await build(buildEnv, (options.build ?? true) ? appNames : []);
  if (!existsSync(serverEntry)) throw new Error(`${path.relative(root, serverEntry)} is missing after the build.`);
  for (const name of appNames) {
    if (!existsSync(path.join(root, 'apps', name, 'out', 'index.html'))) {
      throw new Error(`apps/${name}/out is missing: build the apps first (npm run build).`);
    }
  }

  let stopping = false;
  /** @type {Array<() => Promise<void>>} */
  const closers = [];
  const stop = async () => {
    stopping = true;
    await Promise.allSettled(
      closers
        .splice(0)
        .reverse()
        .map((close) => close()),
    );
  };

  try {
    const server = await startServer({
      port: ports.server,
      dataDir: options.dataDir,
      appOrigins: env.APP_ORIGINS || appOrigins(ports),
      photosOrigins: env.PHOTOS_APP_ORIGINS || originsOf(ports.photos).join(','),
      accountsUrl: env.ACCOUNTS_URL || buildEnv.NEXT_PUBLIC_ENTE_ACCOUNTS_URL,
      castUrl: buildEnv.NEXT_PUBLIC_ENTE_CAST_URL,
      serverEnv: options.serverEnv ?? {},
      onOutput: options.onServerOutput ?? ((line) => console.log(`[server] ${line}`)),
      onUnexpectedExit: (reason) => {
        // A shutdown we asked for is not a death; give our own signal handler a moment to say so.
        setTimeout(() => {
          if (!stopping) options.onUnexpectedExit?.(reason);
        }, 250);
      },
    });
    closers.push(server.stop);
    const apiOrigin = new URL(buildEnv.NEXT_PUBLIC_ENTE_ENDPOINT).origin;
    const storeOrigin = objectStoreOrigin(env);
    for (const name of appNames) {
      const app = await serveStatic({
        root: path.join(root, 'apps', name, 'out'),
        port: ports[name],
        apiOrigins: [apiOrigin],
        storeOrigins: storeOrigin ? [storeOrigin] : [],
      });
      closers.push(app.close);
    }
    await server.ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls, buildEnv, stop };
}

/** Both spellings of each app's origin, for the server's CORS list. */
function appOrigins(ports) {
  return appNames.flatMap((name) => originsOf(ports[name])).join(',');
}

/** The two origins a browser may reach a local app on (localhost and 127.0.0.1 are different origins). */
function originsOf(port) {
  return [localUrl(port), `http://127.0.0.1:${port}`];
}

/** The built server (apps/server/scripts/build.mjs). */
const serverEntry = path.join(root, 'apps', 'server', 'dist', 'main.js');

/** Builds the server and `apps` through turbo (what is unchanged comes from its cache). */
async function build(buildEnv, apps) {
  const what = apps.length ? 'the apps and the server' : 'the server';
  console.log(
    `Building ${what} (turbo; unchanged ones come from its cache) with ` +
      Object.entries(buildEnv)
        .map(([key, value]) => `${key}=${value}`)
        .join(' '),
  );
  const begin = Date.now();
  const turbo = path.join(root, 'node_modules', '.bin', 'turbo');
  const filters = ['@ente/server', ...apps.map((name) => `@ente/app-${name}`)].map((name) => `--filter=${name}`);
  const code = await run(turbo, ['run', 'build', ...filters, '--output-logs=errors-only'], {
    cwd: root,
    env: { ...quietEnv, ...buildEnv },
    stdio: 'inherit',
  });
  if (code !== 0) throw new Error(`The build of ${what} failed (turbo exited with ${code}).`);
  console.log(`Built ${what} in ${((Date.now() - begin) / 1000).toFixed(1)} s.`);
}

/**
 * Spawns the built API server (apps/server/dist/main.js) and waits for GET /ping.
 * @returns {Promise<{ ready: Promise<void>, stop: () => Promise<void> }>}
 */
async function startServer({
  port,
  dataDir,
  appOrigins,
  photosOrigins,
  accountsUrl,
  castUrl,
  serverEnv,
  onOutput,
  onUnexpectedExit,
}) {
  const serverDir = path.join(root, 'apps', 'server');
  const child = spawn(process.execPath, [serverEntry], {
    cwd: serverDir,
    env: {
      ...quietEnv,
      ...serverEnv,
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_ORIGINS: appOrigins,
      // Checked against an S3 store's CORS at start.
      PHOTOS_APP_ORIGINS: photosOrigins,
      ACCOUNTS_URL: accountsUrl,
      // Named to Ente's photos apps (feature flags' castUrl) as the page to open on a screen.
      CAST_APP_URL: castUrl,
      // Passkeys are checked at the accounts app: its origin is the relying party's (unless set).
      WEBAUTHN_RP_ID: quietEnv.WEBAUTHN_RP_ID || new URL(accountsUrl).hostname,
      WEBAUTHN_RP_ORIGINS: quietEnv.WEBAUTHN_RP_ORIGINS || new URL(accountsUrl).origin,
      ...(dataDir ? { DATA_DIR: path.resolve(dataDir) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', onOutput);
  }
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code}`));
    child.on('error', (error) => resolve(error.message));
  });
  let running = true;
  void exited.then((reason) => {
    if (running) onUnexpectedExit(`The server stopped (${reason}).`);
    running = false;
  });
  // Kill it if this process exits without stopping the stack (an uncaught error, process.exit).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.off('exit', killOnExit);
    if (!running) return;
    running = false;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  const ready = Promise.race([
    waitForPing(`http://127.0.0.1:${port}/ping`, 120_000),
    exited.then((reason) => {
      throw new Error(`The server stopped before it was ready (${reason}); its output is above.`);
    }),
  ]);
  ready.catch(() => {}); // awaited by the caller; avoid an unhandled rejection meanwhile
  return { ready, stop };
}

async function waitForPing(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer ${url} within ${timeoutMs / 1000} s.`);
}

/** Fails before the build, naming the port, if something already listens on one of ours. */
async function ensurePortsFree(entries) {
  const busy = [];
  for (const [name, port] of entries) {
    const free = await new Promise((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (!free) busy.push(`${name} ${port}`);
  }
  if (busy.length) {
    throw new Error(`Port(s) already in use: ${busy.join(', ')}. Is the stack already running?`);
  }
}

function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, options);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(1));
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      'no-build': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
    },
  });
  ensureDependencies();
  const begin = Date.now();
  let stack;
  const fail = async (message) => {
    console.error(`\n✖ ${message} Stopping everything.`);
    await stack?.stop();
    process.exit(1);
  };
  try {
    stack = await startStack({
      build: !values['no-build'],
      dataDir: values['data-dir'],
      onUnexpectedExit: (reason) => void fail(reason),
    });
  } catch (error) {
    console.error(`\n✖ ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  const width = Math.max(...Object.keys(stack.urls).map((name) => name.length));
  console.log(`\nEnte is running (ready in ${((Date.now() - begin) / 1000).toFixed(1)} s):`);
  for (const [name, url] of Object.entries(stack.urls)) console.log(`  ${name.padEnd(width)}  ${url}`);
  console.log('Press Ctrl-C to stop.');
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.log(`\n${signal}: stopping…`);
      void stack.stop().then(() => process.exit(0));
    });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main();
}
