// Login CPU benchmark: the API server's CPU time per password login, across the whole server process
// (every thread: the event loop, the SRP worker threads, the embedded PGlite), and logins per second.
// Prints one JSON object; target ≤ 10 ms. With --runs N, N runs each on a new server, and their median.
//
//   node --import tsx bench/login-cpu.mjs [--accounts 1] [--logins 300] [--warmup 20] [--concurrency 2]
//                                          [--idle 5] [--srp-threads N] [--browser] [--one-address]
//                                          [--no-rate-limits] [--runs 1]
//                                          (npm run bench:login-cpu --workspace @ente/bench)
//
// A login is an SRP login as a client makes it: POST /users/srp/create-session, then POST
// /users/srp/verify-session, from a loopback address of its own (127.x.y.z) over a connection of its own,
// against the server's default rate limits, so that every login pays what a new client costs the server: its
// per-address limit counters, its new connection, its login notice. That is the figure the target is for.
// --browser makes the login a browser makes the first time it signs in at an app: GET /users/srp/attributes
// first, and each of the three requests from the app's origin after its CORS preflight (X-Client-Package is
// not a safelisted header): four requests more, reported without a target. --one-address sends every login
// from 127.0.0.1; --no-rate-limits turns the route limits off.
// The server runs as `npm start` runs it: built (dist/main.js), its own process, embedded PGlite in a fresh data folder (or the
// PostgreSQL of DATABASE_URL, whose CPU is then not counted), exactly the environment it needs. Accounts are
// signed up over HTTP with random key attributes (the server never decrypts them) and a random login subkey
// that the benchmark keeps, so each login is a real SRP exchange with @ente/crypto's client; each answer's M2
// is checked. The server's CPU is read from /proc/<pid>/stat (utime + stime: all threads, live and ended)
// before and after the logins; the same server's idle CPU, measured over --idle seconds before, is
// subtracted for the time the logins took. The first --warmup logins start the SRP threads and are not
// counted (their CPU is reported apart). The benchmark's own CPU per login (the client's SRP, on BigInt)
// is reported for context: on a 2-core machine it competes with the server for the cores.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { computeSrpVerifierB64, createSrpClient } from '@ente/crypto';

import { randomKeyAttributes } from './accounts.mjs';
import { benchSettings } from './config.mjs';
import { positiveOption, round } from './numbers.mjs';
import { builtServer, startProcess } from './process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../apps/server');
const { databaseUrl, serverLogLevel } = benchSettings;
const targetMs = 10;
const ottDomain = '@login-bench.example.org';
const ottCode = '123456';
// The auth app's origin in `npm start`: the server below allows it (APP_ORIGINS).
const appOrigin = 'http://localhost:3003';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '1' },
    logins: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '2' },
    idle: { type: 'string', default: '5' },
    'srp-threads': { type: 'string' },
    browser: { type: 'boolean', default: false },
    'one-address': { type: 'boolean', default: false },
    'no-rate-limits': { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
  },
});
const asBrowser = values.browser;
const ownAddresses = !values['one-address'];
const rateLimits = !values['no-rate-limits'];
let addressCount = 0;
const accounts = positive('accounts');
const logins = positive('logins');
const runs = positive('runs');
const warmup = Number(values.warmup);
const concurrency = positive('concurrency');
const idleSeconds = Number(values.idle);
if (!Number.isInteger(warmup) || warmup < 0) throw new Error('--warmup must be a whole number');
if (!(idleSeconds > 0)) throw new Error('--idle must be a positive number of seconds');
const srpThreads = values['srp-threads'];
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const serverEntry = builtServer(serverRoot);
const results = [];
for (let run = 0; run < runs; run++) results.push(await measureRun());
if (runs === 1) {
  console.log(JSON.stringify(results[0], null, 2));
} else {
  const perLogin = results.map((result) => result.serverCpuMsPerLogin);
  const median = [...perLogin].sort((a, b) => a - b)[Math.floor(runs / 2)];
  const { serverCpuMsPerLogin: _first, meetsTarget: _firstMeets, ...first } = results[0];
  console.log(
    JSON.stringify(
      {
        ...first,
        runs,
        serverCpuMsPerLoginMedian: median,
        serverCpuMsPerLoginEachRun: perLogin,
        loginsPerSecondEachRun: results.map((result) => result.loginsPerSecond),
        ...targetOf(median),
      },
      null,
      2,
    ),
  );
}

/** One run on a server of its own: its result object. */
async function measureRun() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ente-bench-login-'));
  const server = await startProcess(process.execPath, [serverEntry], serverRoot, {
    PORT: '0',
    LOG_LEVEL: serverLogLevel,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
    FIXED_OTT_DOMAIN_SUFFIX: ottDomain,
    FIXED_OTT_DOMAIN_CODE: ottCode,
    APP_ORIGINS: appOrigin,
    // Signing the accounts up sends codes; the limits on sending them are not what is measured.
    OTT_SEND_SOFT_LIMIT: '0',
    OTT_SEND_HARD_LIMIT: '0',
    ...(rateLimits ? {} : { RATE_LIMIT_PER_MINUTE: '0' }),
    ...(srpThreads ? { SRP_THREADS: srpThreads } : {}),
  });
  try {
    const users = [];
    for (let i = 0; i < accounts; i++) users.push(await signUp(server.url, i));

    const warm = await measureLogins(server, users, warmup);
    const idleStart = serverCpuMs(server.pid);
    const idleFrom = performance.now();
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idleMsPerSecond = (serverCpuMs(server.pid) - idleStart) / ((performance.now() - idleFrom) / 1000);
    const run = await measureLogins(server, users, logins);

    const cpuPerLogin = (run.serverCpuMs - idleMsPerSecond * run.seconds) / logins;
    const result = {
      benchmark: 'login-cpu',
      database: databaseUrl ? 'postgresql (its CPU not counted)' : 'pglite (embedded, counted)',
      srpThreads: srpThreads ?? 'server default (cores − 1, at least 1)',
      cores: os.availableParallelism(),
      accounts,
      logins,
      concurrency,
      login: asBrowser
        ? "a new browser's: attributes, create-session, verify-session, each after its preflight"
        : 'an SRP login: create-session and verify-session',
      clientAddresses: ownAddresses ? 'one per login (127.x.y.z)' : 'one (127.0.0.1)',
      rateLimits: rateLimits ? 'server defaults' : 'off',
      serverCpuMsPerLogin: round(cpuPerLogin),
      loginsPerSecond: round(logins / run.seconds),
      serverCpuMsMeasured: round(run.serverCpuMs),
      serverIdleCpuMsPerSecond: round(idleMsPerSecond),
      loginSeconds: round(run.seconds),
      clientCpuMsPerLogin: round(run.clientCpuMs / logins),
      warmup: {
        logins: warmup,
        serverCpuMsPerLogin: warmup > 0 ? round(warm.serverCpuMs / warmup) : null,
        seconds: round(warm.seconds),
      },
      clockTicksPerSecond: ticksPerSecond,
      // Other work on the machine slows the logins down (logins per second), far less their CPU time.
      loadAverage1m: round(os.loadavg()[0]),
      ...targetOf(cpuPerLogin),
    };
    return result;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The target applies to the SRP login; a browser's login is reported beside it. */
function targetOf(cpuPerLogin) {
  if (asBrowser) {
    return { target: `${targetMs} ms for the SRP login (without --browser); none for this one`, meetsTarget: null };
  }
  return { target: targetMs, meetsTarget: cpuPerLogin <= targetMs };
}

/** `count` logins spread over the accounts, `concurrency` at a time: the server's CPU, wall and client time. */
async function measureLogins(server, users, count) {
  const cpuBefore = serverCpuMs(server.pid);
  const clientBefore = process.cpuUsage();
  const from = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = next++;
      await login(server.url, users[index % users.length], ownAddresses ? nextAddress() : '127.0.0.1');
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  const seconds = (performance.now() - from) / 1000;
  const client = process.cpuUsage(clientBefore);
  return {
    serverCpuMs: serverCpuMs(server.pid) - cpuBefore,
    seconds,
    clientCpuMs: (client.user + client.system) / 1000,
  };
}

/** utime + stime of the whole process (all its threads, ended ones included), in ms. */
function serverCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces; fields 14 and 15 follow it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  return ((utime + stime) * 1000) / ticksPerSecond;
}

/**
 * One password login from `address` over one kept-alive connection of its own: a fresh client's A, the
 * server's B, M1 → M2, which must prove the verifier.
 */
async function login(baseUrl, user, address) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: address });
  const origin = asBrowser ? appOrigin : undefined;
  try {
    if (asBrowser) {
      const { attributes } = await call(
        baseUrl,
        'GET',
        `/users/srp/attributes?email=${encodeURIComponent(user.email)}`,
        {
          agent,
          origin,
        },
      );
      if (attributes.srpUserID !== user.identity.srpUserID) throw new Error('the attributes name another srpUserID');
    }
    const client = await createSrpClient(user.identity);
    const session = await call(baseUrl, 'POST', '/users/srp/create-session', {
      body: { srpUserID: user.identity.srpUserID, srpA: client.srpA },
      agent,
      origin,
    });
    const verified = await call(baseUrl, 'POST', '/users/srp/verify-session', {
      body: {
        sessionID: session.sessionID,
        srpUserID: user.identity.srpUserID,
        srpM1: client.computeM1B64(session.srpB),
      },
      agent,
      origin,
    });
    if (!client.verifyM2(verified.srpM2)) throw new Error('the server did not prove it knows the verifier');
    if (!verified.encryptedToken) throw new Error('the login answer has no encryptedToken');
  } finally {
    agent.destroy();
  }
}

/** The next loopback address, 127.0.1.0 onwards (Linux answers the whole of 127/8 on the loopback). */
function nextAddress() {
  const n = 256 + addressCount++;
  return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** An account with key attributes and SRP set up for a random login subkey, which the benchmark keeps. */
async function signUp(baseUrl, index) {
  const email = `login-${index}-${randomBytes(4).toString('hex')}${ottDomain}`;
  await call(baseUrl, 'POST', '/users/ott', { body: { email, purpose: 'signup' } });
  const { token } = await call(baseUrl, 'POST', '/users/verify-email', { body: { email, ott: ottCode } });
  const b64 = (length) => randomBytes(length).toString('base64');
  await call(baseUrl, 'PUT', '/users/attributes', { body: { keyAttributes: randomKeyAttributes() }, token });
  const identity = { srpUserID: randomUUID(), srpSalt: b64(16), loginSubKey: b64(16) };
  const srpVerifier = computeSrpVerifierB64(identity);
  const client = await createSrpClient(identity);
  const setup = await call(baseUrl, 'POST', '/users/srp/setup', {
    body: { srpUserID: identity.srpUserID, srpSalt: identity.srpSalt, srpVerifier, srpA: client.srpA },
    token,
  });
  const complete = await call(baseUrl, 'POST', '/users/srp/complete', {
    body: { setupID: setup.setupID, srpM1: client.computeM1B64(setup.srpB) },
    token,
  });
  if (!client.verifyM2(complete.srpM2)) throw new Error('SRP setup: the server did not prove it knows the verifier');
  return { email, identity };
}

/**
 * One JSON request through node:http (fetch cannot choose the local address): the parsed answer, or a throw.
 * With an `origin`, first the preflight a browser sends for it (a new browser has none cached).
 */
async function call(baseUrl, method, route, { body, token, agent, origin } = {}) {
  const headers = { 'X-Client-Package': 'io.ente.auth.web' };
  const payload = body === undefined ? undefined : JSON.stringify(body);
  if (payload !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['X-Auth-Token'] = token;
  if (origin) {
    const preflight = await send(baseUrl, 'OPTIONS', route, agent, undefined, {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': Object.keys(headers).join(',').toLowerCase(),
    });
    if (preflight.headers['access-control-allow-origin'] !== origin) throw new Error(`${route}: preflight refused`);
    headers.Origin = origin;
  }
  const { status, text } = await send(baseUrl, method, route, agent, payload, headers);
  if (status < 200 || status > 299) throw new Error(`${method} ${route}: ${status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function send(baseUrl, method, route, agent, payload, headers) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${route}`, { method, headers, agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

function positive(name) {
  return positiveOption(values, name);
}
