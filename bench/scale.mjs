// Scale benchmark: the API server with a real deployment's data (10,000 accounts, 100,000 codes by
// default), on PGlite and on PostgreSQL 15. Prints one JSON object, then a table, and writes
// bench/results/scale.json.
//
//   node bench/scale.mjs [--users 10000] [--codes-per-user 10] [--duration 10] [--db pglite|postgres|both]
//                        [--login-users 500] [--login-concurrency 8,32] [--login-clients 1] [--sync-clients 100]
//                        [--cpu-requests 2000] [--profile]
//
// For each database: a fresh one (a PGlite folder, or a throwaway PostgreSQL cluster from
// scripts/postgres.mjs), migrated by starting the server once; then seeded through the database layer by
// apps/server/src/testing/scale.ts (bulk SQL, real SRP verifiers for the accounts that log in); then
// measured with the server as its own process (`node --import tsx src/main.ts`, exactly the environment
// it needs), a fresh one per measurement: start-up time (spawn → first GET /ping answered), SRP logins
// per second (the client side in a second process, scale.ts login), sync diffs per second (autocannon,
// one connection per account), CPU per GET /users/srp/attributes with the route limit off and on, memory,
// and where the time goes (CPU of each thread of the server, of PostgreSQL and of the client; with
// --profile also V8 CPU profiles of the server's threads). See bench/README.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';

import { startPostgres } from '../scripts/postgres.mjs';
import { benchSettings } from './config.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, '..');
const serverRoot = path.join(repositoryRoot, 'apps/server');
const resultsDir = path.join(here, 'results');
const clientPackage = 'io.ente.auth.web';
const warmupSeconds = 2;
const idleSeconds = 2;
/** The server's default RATE_LIMIT_PER_MINUTE (apps/server/src/config.ts): requests per IP and route. */
const defaultRouteLimit = 10;

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    'codes-per-user': { type: 'string', default: '10' },
    duration: { type: 'string', default: '10' },
    db: { type: 'string', default: 'both' },
    'login-users': { type: 'string', default: '500' },
    'login-concurrency': { type: 'string', default: '8,32' },
    'login-clients': { type: 'string', default: '1' },
    'sync-clients': { type: 'string', default: '100' },
    'cpu-requests': { type: 'string', default: '2000' },
    profile: { type: 'boolean', default: false },
  },
});
const options = {
  users: positiveInteger('users'),
  codesPerUser: positiveInteger('codes-per-user'),
  duration: positiveInteger('duration'),
  loginUsers: positiveInteger('login-users'),
  loginConcurrency: values['login-concurrency'].split(',').map((text) => positiveInteger('login-concurrency', text)),
  loginClients: positiveInteger('login-clients'),
  syncClients: positiveInteger('sync-clients'),
  cpuRequests: positiveInteger('cpu-requests'),
  profile: values.profile,
};
const databases = { pglite: ['pglite'], postgres: ['postgresql'], both: ['pglite', 'postgresql'] }[values.db];
if (!databases) throw new Error('--db must be pglite, postgres or both');
/** The windows measured in the current phase (monotonic µs), to cut the server's CPU profiles to. */
const measuredWindows = [];
const clockTicksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const msPerTick = 1000 / clockTicksPerSecond;

/** How to stop or delete whatever is running or on disk (servers, clients, clusters, folders). */
const cleanups = new Set();
/** Registers a cleanup step; returns the function that forgets it (once it was done otherwise). */
function onCleanUp(step) {
  cleanups.add(step);
  return () => cleanups.delete(step);
}
/** Runs every registered step, newest first (on a failure, and on Ctrl-C). */
async function cleanUp() {
  for (const step of [...cleanups].reverse()) {
    cleanups.delete(step);
    try {
      await step();
    } catch (error) {
      console.error(`cleanup: ${error instanceof Error ? error.message : error}`);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`${signal}: cleaning up`);
    void cleanUp().then(() => process.exit(130));
  });
}

const log = (line) => console.error(`[scale] ${line}`);
const result = {
  benchmark: 'scale',
  measuredAt: new Date().toISOString(),
  machine: {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  },
  code: codeVersion(),
  options,
  databases: {},
};
let failed = false;
try {
  for (const database of databases) {
    try {
      result.databases[database] = await measureDatabase(database);
    } catch (error) {
      failed = true;
      console.error(error);
      result.databases[database] = { error: error instanceof Error ? error.message : String(error) };
    }
  }
} finally {
  await cleanUp();
}
mkdirSync(resultsDir, { recursive: true });
writeFileSync(path.join(resultsDir, 'scale.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
console.log();
console.log(table(result));
process.exitCode = failed ? 1 : 0;

/** Seeds one database and measures the server on it; everything it starts is stopped and deleted after. */
async function measureDatabase(database) {
  log(`${database}: start`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'ente-scale-'));
  const removeScratch = () => rmSync(scratch, { recursive: true, force: true });
  const forgetScratch = onCleanUp(removeScratch);
  let postgres;
  let forgetPostgres = () => {};
  try {
    if (database === 'pglite') {
      return await measureOn(database, scratch, { DATA_DIR: path.join(scratch, 'pglite') });
    }
    postgres = await startPostgres({ log });
    forgetPostgres = onCleanUp(() => postgres.stop());
    return await measureOn(database, scratch, { DATABASE_URL: postgres.url }, postgres);
  } finally {
    if (postgres) await postgres.stop();
    forgetPostgres();
    removeScratch();
    forgetScratch();
    log(`${database}: cleaned up`);
  }
}

/** The measurements of measureDatabase on a database that exists (`postgres`: its cluster, if one). */
async function measureOn(database, scratch, databaseEnv, postgres) {
  const section = { database, measurements: {} };
  const throughputEnv = { ...databaseEnv, RATE_LIMIT_PER_MINUTE: '0' };

  // 1. Migrations: the server creates the schema on its first start.
  const migrating = await startServer(throughputEnv, { database, phase: 'migrate' });
  section.emptyStartupMs = migrating.startupMs;
  await migrating.stop();

  // 2. Seeding through the database layer, the server stopped (PGlite has a single user).
  log(`${database}: seeding ${options.users} accounts × ${options.codesPerUser} codes`);
  const seedFile = path.join(scratch, 'seed.json');
  const seedStart = performance.now();
  await runToEnd(
    [
      ...['--import', 'tsx', 'src/testing/scale.ts', 'seed', '--out', seedFile],
      ...['--users', options.users, '--codes-per-user', options.codesPerUser].map(String),
      ...['--login-users', options.loginUsers, '--sync-users', options.syncClients].map(String),
    ],
    databaseEnv,
  );
  const seed = JSON.parse(readFileSync(seedFile, 'utf8'));
  section.seeding = {
    wallMs: Math.round(performance.now() - seedStart),
    sqlMs: seed.timingsMs.total,
    stepsMs: seed.timingsMs,
    rows: seed.rows,
    databaseMiB: mib(seed.databaseBytes),
    ...(database === 'pglite' ? { dataFolderMiB: mib(folderBytes(databaseEnv.DATA_DIR)) } : {}),
  };
  section.explain = seed.explain;
  log(`${database}: seeded in ${section.seeding.wallMs} ms`);

  // 3. Measurements, each on a fresh server process.
  const startups = [];
  const listenings = [];
  const measure = async (phase, env, work) => {
    measuredWindows.length = 0;
    const server = await startServer(env, { database, phase });
    startups.push(server.startupMs);
    listenings.push(server.listeningMs);
    try {
      const memoryAfterStart = memoryOf(server.pid);
      const measured = await work(server);
      section.measurements[phase] = {
        ...measured,
        memory: { afterStart: memoryAfterStart, afterLoad: memoryOf(server.pid) },
      };
    } finally {
      await server.stop();
    }
    if (server.profileDir) {
      section.measurements[phase].profile = summariseProfiles(server.profileDir, measuredWindows.splice(0));
    }
  };
  const usageOf = (server) => usageMeter(server.pid, postgres);

  await measure('logins', throughputEnv, async (server) => {
    const rounds = [];
    const clients = [];
    try {
      for (let index = 0; index < options.loginClients; index++) {
        clients.push(await startLoginClient(seedFile, server.url, index));
      }
      const clientPids = clients.map((client) => client.pid);
      for (const concurrency of options.loginConcurrency) {
        log(`${database}: logins, ${concurrency} at a time`);
        rounds.push(await loginRound(clients, concurrency, usageMeter(server.pid, postgres, clientPids)));
      }
    } finally {
      for (const client of clients) await client.stop();
    }
    return { loginClients: clients.length, rounds };
  });

  await measure('sync', throughputEnv, async (server) => {
    const tokens = seed.syncTokens;
    log(`${database}: sync diffs, ${tokens.length} clients`);
    const full = await diffRound(server.url, tokens, 0, usageOf(server));
    const nothingNew = await diffRound(server.url, tokens, Date.now() * 1000, usageOf(server));
    return { full, nothingNew };
  });

  const emailOf = (i) => seed.emailTemplate.replace('{i}', String(i));
  const attributes = (server, addressesFor) =>
    attributesCpu(server, addressesFor, emailOf, usageOf(server), () => idleRate(usageOf(server)));
  // Every IP stays within the route limit, so both servers answer the same requests with 200.
  const spread = (count) => Array.from({ length: count }, (_, k) => loopbackAddress(Math.floor(k / defaultRouteLimit)));
  await measure('attributesLimitOff', throughputEnv, async (server) => {
    log(`${database}: GET /users/srp/attributes, route limit off`);
    return attributes(server, spread);
  });
  await measure('attributesLimitOn', databaseEnv, async (server) => {
    log(`${database}: GET /users/srp/attributes, route limit on (${defaultRouteLimit}/min)`);
    const withinLimit = await attributes(server, spread);
    // One IP far over its limit: answers are 429 after the first ten, each still counted in the database.
    const overLimit = await attributes(server, (count) => Array(count).fill('127.0.0.1'));
    return { withinLimit, overLimit };
  });

  section.startupMs = startups[0];
  section.startupMsAll = startups;
  section.listeningMsAll = listenings;
  section.memory = {
    afterSeedingAndStart: section.measurements.logins.memory.afterStart,
    afterLoadMaxRssMiB: Math.max(...Object.values(section.measurements).map((m) => m.memory.afterLoad.rssMiB)),
    peakHwmMiB: Math.max(...Object.values(section.measurements).map((m) => m.memory.afterLoad.hwmMiB)),
  };
  log(`${database}: measured`);
  return section;
}

/** Starts the API server and waits for its first answer to GET /ping. */
async function startServer(extraEnv, { database, phase }) {
  const port = await freePort();
  const env = { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: benchSettings.serverLogLevel, ...extraEnv };
  let profileDir;
  const profileArgs = [];
  if (options.profile && phase !== 'migrate') {
    profileDir = path.join(resultsDir, 'scale-profiles', database, phase);
    rmSync(profileDir, { recursive: true, force: true });
    mkdirSync(profileDir, { recursive: true });
    profileArgs.push('--cpu-prof', '--cpu-prof-dir', profileDir);
  }
  const started = performance.now();
  const child = spawn(process.execPath, [...profileArgs, '--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const handle = childHandle(child, 'server');
  const forget = onCleanUp(handle.stop);
  let listeningMs;
  child.stdout.on('data', () => {
    if (listeningMs === undefined && /listening on/.test(handle.output())) {
      listeningMs = Math.round(performance.now() - started);
    }
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (handle.exited()) throw new Error(`the server exited before answering:\n${handle.output()}`);
    if (performance.now() - started > 120_000)
      throw new Error(`the server did not answer in 2 min:\n${handle.output()}`);
    const status = await get(`${url}/ping`).catch(() => 0);
    if (status === 200) break;
    await sleep(5);
  }
  const startupMs = Math.round(performance.now() - started);
  return {
    url,
    pid: child.pid,
    startupMs,
    listeningMs,
    profileDir,
    async stop() {
      await handle.stop();
      forget();
    },
  };
}

/** Runs `node args` in apps/server with exactly `env` until it exits; throws on failure. */
async function runToEnd(args, env) {
  const child = spawn(process.execPath, args, { cwd: serverRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const handle = childHandle(child, 'seeder');
  const forget = onCleanUp(handle.stop);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  forget();
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}:\n${handle.output()}`);
}

/** The output and the stopping of a child process (SIGTERM, then SIGKILL after 20 s). */
function childHandle(child, name) {
  let output = '';
  const collect = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const isDone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    output: () => output,
    exited: isDone,
    async stop() {
      if (isDone()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        console.error(`${name} did not stop in 20 s: SIGKILL`);
        child.kill('SIGKILL');
      }, 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The SRP client process (apps/server/src/testing/scale.ts login), driven over IPC. */
async function startLoginClient(seedFile, url, index) {
  const child = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', 'src/testing/scale.ts', 'login', '--accounts', seedFile, '--url', url],
      ...['--client-index', String(index), '--clients', String(options.loginClients)],
    ],
    { cwd: serverRoot, env: {}, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  const handle = childHandle(child, 'login client');
  const forget = onCleanUp(handle.stop);
  const messages = [];
  let wake = () => {};
  child.on('message', (message) => {
    messages.push(message);
    wake();
  });
  child.on('exit', () => wake());
  const next = async (type) => {
    for (;;) {
      const index = messages.findIndex((message) => message.type === type || message.type === 'error');
      if (index >= 0) {
        const [message] = messages.splice(index, 1);
        if (message.type === 'error') throw new Error(`login client: ${message.message}`);
        return message;
      }
      if (handle.exited()) throw new Error(`the login client exited:\n${handle.output()}`);
      await new Promise((resolve) => (wake = resolve));
    }
  };
  await next('ready');
  return {
    pid: child.pid,
    send: (message) => child.send(message),
    next,
    async stop() {
      if (child.connected) child.send({ type: 'exit' });
      await handle.stop();
      forget();
    },
  };
}

/**
 * One round of logins at `concurrency`, shared by the client processes: they log in for the warm-up, the
 * measured window and half a second more; the logins that ended within the window count, and the server's
 * (and PostgreSQL's, and the clients') CPU is read over the same window.
 */
async function loginRound(clients, concurrency, meter) {
  const ended = clients.map((client, index) => {
    const share = Math.floor(concurrency / clients.length) + (index < concurrency % clients.length ? 1 : 0);
    client.send({ type: 'round', concurrency: share, seconds: warmupSeconds + options.duration + 0.5 });
    return client.next('end');
  });
  await sleep(warmupSeconds * 1000);
  meter.start();
  await sleep(options.duration * 1000);
  const usage = meter.stop();
  const [windowStart, windowEnd] = measuredWindows.at(-1);
  const results = (await Promise.all(ended)).map((message) => message.result);
  const errors = results.reduce((sum, result) => sum + result.errors, 0);
  if (errors > 0) {
    throw new Error(`${errors} logins failed, the first: ${results.find((result) => result.firstError)?.firstError}`);
  }
  const latencies = results
    .flatMap((result) => result.logins)
    .filter(({ endUs }) => endUs >= windowStart && endUs <= windowEnd)
    .map(({ ms }) => ms)
    .sort((a, b) => a - b);
  const percentile = (p) => latencies[Math.floor((latencies.length - 1) * p)];
  const seconds = usage.wallMs / 1000;
  const perLogin = (ms) => round1(ms / latencies.length);
  return {
    concurrency,
    seconds: round1(seconds),
    logins: latencies.length,
    loginsPerSecond: round1(latencies.length / seconds),
    latencyP50Ms: percentile(0.5),
    latencyP99Ms: percentile(0.99),
    accountsUsed: results.reduce((sum, result) => sum + result.accountsUsed, 0),
    serverCpuMsPerLogin: perLogin(usage.serverCpuMs),
    ...(usage.databaseCpuMs === undefined ? {} : { databaseCpuMsPerLogin: perLogin(usage.databaseCpuMs) }),
    clientCpuMsPerLogin: perLogin(usage.clientCpuMs),
    usage,
  };
}

/** Authenticated diffs from one keep-alive connection per account, after a warm-up. */
async function diffRound(url, tokens, sinceTime, meter) {
  const target = `${url}/authenticator/entity/diff?sinceTime=${sinceTime}&limit=500`;
  const expected = sinceTime === 0 ? options.codesPerUser : 0;
  for (const token of [tokens[0], tokens.at(-1)]) {
    const answer = await fetch(target, { headers: { 'X-Client-Package': clientPackage, 'X-Auth-Token': token } });
    const body = await answer.json();
    if (!answer.ok || body.diff?.length !== expected) {
      throw new Error(`diff since ${sinceTime}: ${answer.status}, ${body.diff?.length} entities, expected ${expected}`);
    }
  }
  const run = async (duration) => {
    let next = 0;
    const measured = await autocannon({
      url: target,
      connections: tokens.length,
      duration,
      headers: { 'X-Client-Package': clientPackage },
      setupClient(client) {
        client.setHeaders({ 'X-Client-Package': clientPackage, 'X-Auth-Token': tokens[next++ % tokens.length] });
      },
    });
    if (measured.non2xx > 0 || measured.errors > 0 || measured.timeouts > 0) {
      throw new Error(
        `${target}: ${measured.non2xx} non-2xx, ${measured.errors} errors, ${measured.timeouts} timeouts`,
      );
    }
    return measured;
  };
  await run(warmupSeconds);
  meter.start();
  const measured = await run(options.duration);
  const usage = meter.stop();
  return {
    sinceTime,
    entitiesPerAnswer: expected,
    connections: tokens.length,
    requestsPerSecond: Math.round(measured.requests.average),
    latencyP50Ms: measured.latency.p50,
    latencyP99Ms: measured.latency.p99,
    latencyAverageMs: measured.latency.average,
    requests: measured.requests.total,
    serverCpuMsPerRequest: round3(usage.serverCpuMs / measured.requests.total),
    ...(usage.databaseCpuMs === undefined
      ? {}
      : { databaseCpuMsPerRequest: round3(usage.databaseCpuMs / measured.requests.total) }),
    usage,
  };
}

/**
 * CPU per GET /users/srp/attributes: `addressesFor(n)` gives the loopback address each of n requests comes
 * from (all of 127.0.0.0/8 is this machine, so each address is an IP the server's limiter counts apart).
 * After a warm-up from other addresses and a measurement of the server's idle CPU (subtracted), the requests
 * go out eight at a time, each address on its own keep-alive connection (one address: eight connections).
 */
async function attributesCpu(server, addressesFor, emailOf, meter, measureIdle) {
  const warmup = Array.from({ length: 300 }, (_, k) => loopbackAddress(k, 1));
  const warmupStart = performance.now();
  meter.start();
  await attributesRequests(server.url, warmup, emailOf);
  const cold = meter.stop();
  measuredWindows.pop(); // not a measurement
  // At least --cpu-requests, and enough for about --duration seconds at the warm-up's pace.
  const perSecond = warmup.length / ((performance.now() - warmupStart) / 1000);
  const localAddresses = addressesFor(
    Math.max(options.cpuRequests, Math.ceil((perSecond * options.duration) / 10) * 10),
  );
  const idle = await measureIdle();
  meter.start();
  const { statuses, latencies, connections } = await attributesRequests(server.url, localAddresses, emailOf);
  const usage = meter.stop(idle);
  const requests = localAddresses.length;
  const answered = JSON.stringify(statuses);
  const oneAddress = new Set(localAddresses).size === 1;
  if (!oneAddress && statuses[200] !== requests) {
    throw new Error(`GET /users/srp/attributes: expected ${requests} × 200, got ${answered}`);
  }
  if (oneAddress && (statuses[200] ?? 0) + (statuses[429] ?? 0) !== requests) {
    throw new Error(`GET /users/srp/attributes from one address: expected 200s and 429s, got ${answered}`);
  }
  latencies.sort((a, b) => a - b);
  return {
    requests,
    addresses: new Set(localAddresses).size,
    connections,
    statuses,
    requestsPerSecond: Math.round(requests / (usage.wallMs / 1000)),
    latencyP50Ms: round3(latencies[Math.floor(latencies.length / 2)]),
    serverCpuMsPerRequest: round3(usage.serverCpuMs / requests),
    ...(usage.databaseCpuMs === undefined ? {} : { databaseCpuMsPerRequest: round3(usage.databaseCpuMs / requests) }),
    /** The same for the warm-up's requests, the first the process serves (code not yet optimised, caches cold). */
    warmupServerCpuMsPerRequest: round3(cold.serverCpuMs / warmup.length),
    usage,
  };
}

/** The requests of attributesCpu: eight connections at a time, each sending its address's requests in turn. */
async function attributesRequests(url, localAddresses, emailOf) {
  const concurrency = 8;
  const perAddress = new Map();
  for (const address of localAddresses) perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
  // One connection per address, or eight from the one address there is.
  const queue =
    perAddress.size === 1
      ? Array.from({ length: concurrency }, (_, n) => [
          localAddresses[0],
          Math.floor(localAddresses.length / concurrency) + (n < localAddresses.length % concurrency ? 1 : 0),
        ])
      : [...perAddress.entries()];
  const connections = queue.length;
  const statuses = {};
  const latencies = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (queue.length > 0) {
        const [localAddress, count] = queue.shift();
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        for (let i = 0; i < count; i++) {
          const email = emailOf(1 + Math.floor(Math.random() * options.users));
          const begin = performance.now();
          const status = await get(`${url}/users/srp/attributes?email=${encodeURIComponent(email)}`, {
            agent,
            localAddress,
            headers: { 'X-Client-Package': clientPackage },
          });
          latencies.push(performance.now() - begin);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
        agent.destroy();
      }
    }),
  );
  return { statuses, latencies, connections };
}

/** The server's (and PostgreSQL's) CPU per second of wall time while nothing is asked of them. */
async function idleRate(meter) {
  meter.start();
  await sleep(idleSeconds * 1000);
  const usage = meter.stop();
  measuredWindows.pop(); // not a measurement
  return {
    serverCpuMsPerSecond: usage.serverCpuMs / (usage.wallMs / 1000),
    databaseCpuMsPerSecond: (usage.databaseCpuMs ?? 0) / (usage.wallMs / 1000),
  };
}

/**
 * CPU of process `pid` (all its threads) between start() and stop(), per thread too, of the PostgreSQL
 * cluster (postmaster and its children) when given, of this process, of the login clients when given, and
 * of the whole machine: what the other processes on it took is the rest. stop(idle) subtracts an idle
 * rate from the server's and the cluster's CPU. Percentages are of one core (the machine has
 * `machine.cpus` of them).
 */
function usageMeter(pid, postgres, clientPids = []) {
  let before;
  const snapshot = () => ({
    at: performance.now(),
    monotonicUs: monotonicMicros(),
    bench: process.cpuUsage(),
    machine: machineBusyTicks(),
    threads: threadTicks(pid),
    clients: clientPids.map((clientPid) => threadTicks(clientPid)),
    database: postgres ? clusterTicks(postgres) : undefined,
  });
  return {
    start() {
      before = snapshot();
    },
    stop(idle) {
      const after = snapshot();
      measuredWindows.push([before.monotonicUs, after.monotonicUs]);
      const wallMs = after.at - before.at;
      const threads = {};
      let serverTicks = 0;
      let serverSystemTicks = 0;
      let mainSystemTicks = 0;
      for (const [tid, { name, ticks, systemTicks }] of after.threads) {
        const delta = ticks - (before.threads.get(tid)?.ticks ?? 0);
        const systemDelta = systemTicks - (before.threads.get(tid)?.systemTicks ?? 0);
        serverTicks += delta;
        serverSystemTicks += systemDelta;
        if (tid === pid) mainSystemTicks = systemDelta;
        const label = tid === pid ? 'main' : name === 'v8:ProfEvntProc' ? 'profiler' : 'other';
        threads[label] = (threads[label] ?? 0) + delta;
      }
      const percent = (ticks) => Math.round((ticks * msPerTick * 100) / wallMs);
      const bench = process.cpuUsage(before.bench);
      const seconds = wallMs / 1000;
      const serverCpuMs = serverTicks * msPerTick - (idle ? idle.serverCpuMsPerSecond * seconds : 0);
      let databaseTicks = 0;
      if (postgres) {
        for (const [child, value] of after.database) databaseTicks += value - (before.database.get(child) ?? 0);
      }
      const databaseCpuMs = postgres
        ? databaseTicks * msPerTick - (idle ? idle.databaseCpuMsPerSecond * seconds : 0)
        : undefined;
      const clientThreads = {};
      let clientTicks = 0;
      after.clients.forEach((clientThreadTicks, index) => {
        for (const [tid, { ticks }] of clientThreadTicks) {
          const delta = ticks - (before.clients[index].get(tid)?.ticks ?? 0);
          clientTicks += delta;
          const label = tid === clientPids[index] ? 'main' : 'other';
          clientThreads[label] = (clientThreads[label] ?? 0) + delta;
        }
      });
      const benchMs = (bench.user + bench.system) / 1000;
      const machineMs = (after.machine - before.machine) * msPerTick;
      const othersMs = machineMs - (serverTicks + databaseTicks + clientTicks) * msPerTick - benchMs;
      return {
        wallMs: Math.round(wallMs),
        serverCpuMs: Math.round(serverCpuMs),
        serverCpuPercent: Math.round((serverCpuMs * 100) / wallMs),
        /** The part of it spent in the kernel (socket writes and reads, the loopback's TCP, file I/O). */
        serverSystemPercent: percent(serverSystemTicks),
        mainThreadSystemPercent: percent(mainSystemTicks),
        threads: Object.fromEntries(
          Object.entries(threads)
            .filter(([, ticks]) => ticks > 0)
            .map(([label, ticks]) => [label, percent(ticks)]),
        ),
        ...(databaseCpuMs === undefined
          ? {}
          : {
              databaseCpuMs: Math.round(databaseCpuMs),
              databaseCpuPercent: Math.round((databaseCpuMs * 100) / wallMs),
            }),
        benchCpuPercent: Math.round((benchMs * 100) / wallMs),
        ...(clientPids.length > 0
          ? {
              clientCpuMs: Math.round(clientTicks * msPerTick),
              clientCpuPercent: percent(clientTicks),
              clientThreads: Object.fromEntries(
                Object.entries(clientThreads)
                  .filter(([, ticks]) => ticks > 0)
                  .map(([label, ticks]) => [label, percent(ticks)]),
              ),
            }
          : {}),
        machineCpuPercent: Math.round((machineMs * 100) / wallMs),
        // Clock ticks are 10 ms: a short window can come out a little below zero.
        otherProcessesCpuPercent: Math.max(0, Math.round((othersMs * 100) / wallMs)),
        loadAverage1m: os.loadavg()[0],
      };
    },
  };
}

/** Busy time of all cores together (everything but idle and iowait) from /proc/stat, in clock ticks. */
function machineBusyTicks() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return user + nice + system + irq + softirq + steal;
}

/** utime + stime (and stime alone) of every thread of `pid`, by thread id, with the thread's name. */
function threadTicks(pid) {
  const threads = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      threads.set(Number(tid), {
        name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        ticks: ticksOf(stat),
        systemTicks: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[12]),
      });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/** utime + stime of the postmaster and of each of its children (backends, checkpointer, …), by pid. */
function clusterTicks(postgres) {
  const postmaster = Number(readFileSync(path.join(postgres.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const ticks = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (Number(entry) === postmaster || parent === postmaster) ticks.set(Number(entry), ticksOf(stat));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks;
}

/** Fields 14 (utime) and 15 (stime) of a /proc stat line, in clock ticks. */
function ticksOf(stat) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Resident memory now and at its peak (VmHWM), MiB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: Math.round(kib('VmRSS') / 1024), hwmMiB: Math.round(kib('VmHWM') / 1024) };
}

/**
 * The CPU profiles in `dir` (one per thread of the server), over the measured windows only: how busy each
 * thread was, its self time by area (PGlite, the pg driver, Kysely, Fastify, the server's code, native
 * calls such as socket writes and OpenSSL, garbage collection, …) and the functions with the most self time.
 * V8 stamps samples with the monotonic clock that process.hrtime reads, so the windows apply as they are.
 */
function summariseProfiles(dir, windows) {
  const inWindow = (time) => windows.some(([start, end]) => time >= start && time <= end);
  const windowMs = windows.reduce((sum, [start, end]) => sum + (end - start) / 1000, 0);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => {
      const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
      const selfMs = new Map();
      const areaMs = new Map();
      let time = profile.startTime;
      profile.samples.forEach((id, i) => {
        time += profile.timeDeltas[i] ?? 0;
        if (!inWindow(time)) return;
        const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
        const { functionName, url, lineNumber } = nodes.get(id);
        const where = url
          ? `${url.replace(/^.*\/node_modules\//, '').replace(`file://${repositoryRoot}/`, '')}:${lineNumber + 1}`
          : '';
        const key = `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
        selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
        const area = areaOf(functionName, url);
        areaMs.set(area, (areaMs.get(area) ?? 0) + ms);
      });
      const idleMs = areaMs.get('idle') ?? 0;
      const sampledMs = [...areaMs.values()].reduce((sum, ms) => sum + ms, 0);
      const busyMs = sampledMs - idleMs;
      const share = (ms) => round1((ms * 100) / busyMs);
      return {
        file: path.relative(repositoryRoot, path.join(dir, file)),
        windowMs: Math.round(windowMs),
        busyMs: Math.round(busyMs),
        busyPercent: round1((busyMs * 100) / (sampledMs || 1)),
        areasPercentOfBusy: Object.fromEntries(
          [...areaMs.entries()]
            .filter(([area, ms]) => area !== 'idle' && share(ms) >= 0.5)
            .sort((a, b) => b[1] - a[1])
            .map(([area, ms]) => [area, share(ms)]),
        ),
        top: [...selfMs.entries()]
          .filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('atomicsWaitLoop piscina'))
          .sort((a, b) => b[1] - a[1])
          .slice(0, 12)
          .map(([key, ms]) => ({ function: key, selfMs: Math.round(ms), percentOfBusy: share(ms) })),
      };
    })
    .filter((thread) => thread.busyMs > 0);
}

/** What a profiled function belongs to, by its script. */
function areaOf(functionName, url) {
  // A Piscina thread waiting for its next task blocks in Atomics.wait inside this function: no CPU.
  if (functionName === '(idle)' || (functionName === 'atomicsWaitLoop' && url.includes('piscina'))) return 'idle';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 and Node, unattributed';
  if (url.startsWith('wasm://') || url.includes('@electric-sql/pglite')) return 'PGlite';
  if (/\/node_modules\/(pg|pg-protocol|pg-pool|pg-types|pgpass)\//.test(url)) return 'pg driver';
  if (url.includes('/node_modules/kysely/')) return 'Kysely';
  if (/\/node_modules\/(@fastify|fastify|find-my-way|avvio|pino|fast-json-stringify|light-my-request)/.test(url)) {
    return 'Fastify';
  }
  if (url.includes('/node_modules/piscina/')) return 'Piscina';
  if (url.includes('/node_modules/zod/')) return 'zod';
  if (url.includes('/apps/server/src/')) return 'server code';
  if (url.includes('/packages/')) return 'our packages';
  if (url.startsWith('node:internal/crypto')) return 'node:crypto (OpenSSL)';
  if (url.startsWith('node:')) return 'Node (JS)';
  if (url === '') return `native: ${functionName}`;
  return 'other dependencies';
}

/** A GET whose status is all that matters (the body is read and dropped). */
function get(url, { agent = false, localAddress, headers } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, localAddress, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/**
 * The k-th loopback address of block `block`: 127.0.1.1 on for block 0 (the measured requests), 127.1.1.1 on
 * for block 1 (the warm-up). 127.0.0.1 stays the "single IP" of the over-limit run.
 */
function loopbackAddress(k, block = 0) {
  return `127.${block}.${1 + Math.floor(k / 250)}.${1 + (k % 250)}`;
}

/** The monotonic clock (CLOCK_MONOTONIC, as in V8's profiles), µs. */
function monotonicMicros() {
  return Number(process.hrtime.bigint() / 1000n);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function folderBytes(folder) {
  let total = 0;
  for (const entry of readdirSync(folder, { recursive: true })) {
    const stats = statSync(path.join(folder, entry));
    if (stats.isFile()) total += stats.size;
  }
  return total;
}

/** The commit measured and whether the SRP code differed from it (others change it while benches run). */
function codeVersion() {
  const git = (args) => spawnSync('git', args, { cwd: repositoryRoot, encoding: 'utf8' }).stdout?.trim() ?? '';
  const changed = git(['status', '--porcelain', '--', 'apps/server/src/srp', 'packages/crypto/src/srp.ts']);
  return { commit: git(['rev-parse', 'HEAD']), srpFilesChanged: changed ? changed.split('\n') : [] };
}

function table(measured) {
  const sections = Object.entries(measured.databases);
  const rows = [['', ...sections.map(([name]) => name)]];
  const row = (label, format) =>
    rows.push([label, ...sections.map(([, section]) => (section.error ? 'failed' : (format(section) ?? '–')))]);
  const fixed = (value, digits = 1) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));
  row('seeding (s)', (s) => fixed(s.seeding.wallMs / 1000));
  row('start-up empty / with data (ms)', (s) => `${s.emptyStartupMs} / ${s.startupMs}`);
  for (const [i, concurrency] of options.loginConcurrency.entries()) {
    row(`logins/s at ${concurrency} (p50 / p99 ms)`, (s) => {
      const r = s.measurements.logins.rounds[i];
      return `${fixed(r.loginsPerSecond)} (${Math.round(r.latencyP50Ms)} / ${Math.round(r.latencyP99Ms)})`;
    });
    row(`  CPU ms per login: server / db / client`, (s) => {
      const r = s.measurements.logins.rounds[i];
      return `${fixed(r.serverCpuMsPerLogin)} / ${fixed(r.databaseCpuMsPerLogin)} / ${fixed(r.clientCpuMsPerLogin)}`;
    });
  }
  for (const [key, label] of [
    ['full', 'diff since 0'],
    ['nothingNew', 'diff since now'],
  ]) {
    row(`${label}: req/s (p50 / p99 ms)`, (s) => {
      const r = s.measurements.sync[key];
      return `${r.requestsPerSecond} (${fixed(r.latencyP50Ms, 0)} / ${fixed(r.latencyP99Ms, 0)})`;
    });
    row(`  CPU ms per request: server / db`, (s) => {
      const r = s.measurements.sync[key];
      return `${fixed(r.serverCpuMsPerRequest, 3)} / ${fixed(r.databaseCpuMsPerRequest, 3)}`;
    });
  }
  const attributes = [
    ['limit off', (s) => s.measurements.attributesLimitOff],
    ['limit on', (s) => s.measurements.attributesLimitOn.withinLimit],
    ['limit on, 1 IP (429s)', (s) => s.measurements.attributesLimitOn.overLimit],
  ];
  for (const [label, pick] of attributes) {
    row(`srp/attributes ${label}: CPU ms/req server / db`, (s) => {
      const r = pick(s);
      return `${fixed(r.serverCpuMsPerRequest, 2)} / ${fixed(r.databaseCpuMsPerRequest, 2)}`;
    });
  }
  row('other processes on the machine, CPU %', (s) => {
    const shares = usagesOf(s).map((usage) => usage.otherProcessesCpuPercent);
    return `${Math.min(...shares)}–${Math.max(...shares)} of ${measured.machine.cpus * 100}`;
  });
  row(
    'RSS after start / after load (MiB)',
    (s) => `${s.memory.afterSeedingAndStart.rssMiB} / ${s.memory.afterLoadMaxRssMiB}`,
  );
  row('peak RSS, VmHWM (MiB)', (s) => String(s.memory.peakHwmMiB));
  const widths = rows[0].map((_, column) => Math.max(...rows.map((cells) => cells[column].length)));
  return rows
    .map((cells) =>
      cells
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Every `usage` of a database's measurements. */
function usagesOf(section) {
  const found = [];
  const visit = (value) => {
    if (!value || typeof value !== 'object') return;
    if ('otherProcessesCpuPercent' in value) found.push(value);
    else for (const child of Object.values(value)) visit(child);
  };
  visit(section.measurements);
  return found;
}

function positiveInteger(name, text = values[name]) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

function mib(bytes) {
  return Math.round(bytes / 2 ** 20);
}

function round1(value) {
  return Math.round(value * 10) / 10;
}

function round3(value) {
  return Math.round(value * 1000) / 1000;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
