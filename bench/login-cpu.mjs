// Login CPU benchmark: the API server's CPU time per password login (POST /users/srp/create-session, then
// POST /users/srp/verify-session), across the whole server process (every thread: the event loop, the SRP
// worker threads, the embedded PGlite), and logins per second. Prints one JSON object; target ≤ 20 ms.
//
//   node --import tsx bench/login-cpu.mjs [--accounts 10] [--logins 200] [--warmup 20] [--concurrency 2]
//                                          [--idle 5] [--srp-threads N]     (npm run bench:login-cpu --workspace @ente/bench)
//
// The server runs as `npm start` runs it: its own process, embedded PGlite in a fresh data folder (or the
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
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { computeSrpVerifierB64, createSrpClient } from '@ente/crypto';

import { randomKeyAttributes } from './accounts.mjs';
import { benchSettings } from './config.mjs';
import { startProcess } from './process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../apps/server');
const { databaseUrl, serverLogLevel } = benchSettings;
const targetMs = 20;
const ottDomain = '@login-bench.example.org';
const ottCode = '123456';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '10' },
    logins: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '2' },
    idle: { type: 'string', default: '5' },
    'srp-threads': { type: 'string' },
  },
});
const accounts = positive('accounts');
const logins = positive('logins');
const warmup = Number(values.warmup);
const concurrency = positive('concurrency');
const idleSeconds = Number(values.idle);
if (!Number.isInteger(warmup) || warmup < 0) throw new Error('--warmup must be a whole number');
if (!(idleSeconds > 0)) throw new Error('--idle must be a positive number of seconds');
const srpThreads = values['srp-threads'];
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ente-bench-login-'));
const server = await startProcess(process.execPath, ['--import', 'tsx', 'src/main.ts'], serverRoot, {
  PORT: '0',
  LOG_LEVEL: serverLogLevel,
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
  FIXED_OTT_DOMAIN_SUFFIX: ottDomain,
  FIXED_OTT_DOMAIN_CODE: ottCode,
  RATE_LIMIT_PER_MINUTE: '0',
  OTT_SEND_SOFT_LIMIT: '0',
  OTT_SEND_HARD_LIMIT: '0',
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
    target: targetMs,
    meetsTarget: cpuPerLogin <= targetMs,
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
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
      await login(server.url, users[index % users.length]);
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

/** One password login: a fresh client's A, the server's B, M1 → M2, which must prove the verifier. */
async function login(baseUrl, user) {
  const client = await createSrpClient(user.identity);
  const session = await call(baseUrl, 'POST', '/users/srp/create-session', {
    srpUserID: user.identity.srpUserID,
    srpA: client.srpA,
  });
  const verified = await call(baseUrl, 'POST', '/users/srp/verify-session', {
    sessionID: session.sessionID,
    srpUserID: user.identity.srpUserID,
    srpM1: client.computeM1B64(session.srpB),
  });
  if (!client.verifyM2(verified.srpM2)) throw new Error('the server did not prove it knows the verifier');
  if (!verified.encryptedToken) throw new Error('the login answer has no encryptedToken');
}

/** An account with key attributes and SRP set up for a random login subkey, which the benchmark keeps. */
async function signUp(baseUrl, index) {
  const email = `login-${index}-${randomBytes(4).toString('hex')}${ottDomain}`;
  await call(baseUrl, 'POST', '/users/ott', { email, purpose: 'signup' });
  const { token } = await call(baseUrl, 'POST', '/users/verify-email', { email, ott: ottCode });
  const b64 = (length) => randomBytes(length).toString('base64');
  await call(baseUrl, 'PUT', '/users/attributes', { keyAttributes: randomKeyAttributes() }, token);
  const identity = { srpUserID: randomUUID(), srpSalt: b64(16), loginSubKey: b64(16) };
  const srpVerifier = computeSrpVerifierB64(identity);
  const client = await createSrpClient(identity);
  const setup = await call(
    baseUrl,
    'POST',
    '/users/srp/setup',
    { srpUserID: identity.srpUserID, srpSalt: identity.srpSalt, srpVerifier, srpA: client.srpA },
    token,
  );
  const complete = await call(
    baseUrl,
    'POST',
    '/users/srp/complete',
    { setupID: setup.setupID, srpM1: client.computeM1B64(setup.srpB) },
    token,
  );
  if (!client.verifyM2(complete.srpM2)) throw new Error('SRP setup: the server did not prove it knows the verifier');
  return { email, identity };
}

async function call(baseUrl, method, route, body, token) {
  const headers = { 'X-Client-Package': 'io.ente.auth.web' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['X-Auth-Token'] = token;
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function positive(name) {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

function round(value) {
  return Math.round(value * 100) / 100;
}
