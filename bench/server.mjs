// Server benchmark: requests per second and p99 latency of an authenticated
// GET /authenticator/entity/diff that finds nothing new, for a user with 1,000 entities, against a
// bare Fastify hello-world on the same machine. Prints one JSON object; target ratio ≥ 0.4.
//
//   node bench/server.mjs [--duration 5] [--connections 10]     (seconds per round, 3 rounds each)
//
// The API server runs as `npm start` runs it: its own process, embedded PGlite in a fresh data folder
// (or the PostgreSQL of DATABASE_URL when set). Each process gets exactly the environment it needs,
// nothing inherited. Entities are random bytes of the right shapes; the server never decrypts them,
// so no crypto is needed here.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';

import { randomKeyAttributes } from './accounts.mjs';
import { benchSettings } from './config.mjs';
import { builtServer, startProcess } from './process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../apps/server');
const ROUNDS = 3;
const { databaseUrl, serverLogLevel } = benchSettings;

if (process.argv.includes('--hello')) {
  await helloWorld();
} else {
  await main();
}

async function main() {
  const duration = Number(option('--duration', '5'));
  const connections = Number(option('--connections', '10'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ente-bench-'));
  const email = 'bench@example.org';
  const api = await startProcess(process.execPath, [builtServer(serverRoot)], serverRoot, {
    PORT: '0',
    LOG_LEVEL: serverLogLevel,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
    FIXED_OTTS: `${email},123456`,
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const hello = await startProcess(process.execPath, [fileURLToPath(import.meta.url), '--hello'], here, {});
  try {
    const { token, sinceTime } = await seed(api.url, email, 1000);
    const targets = {
      diff: {
        url: `${api.url}/authenticator/entity/diff?sinceTime=${sinceTime}&limit=500`,
        headers: { 'X-Auth-Token': token, 'X-Client-Package': 'io.ente.auth.web' },
      },
      hello: { url: `${hello.url}/`, headers: {} },
    };
    // Both run side by side and are measured in alternating rounds, so that a change in the
    // machine's load during the run affects both alike; each figure is the median of its rounds.
    const rounds = { diff: [], hello: [] };
    for (const target of Object.values(targets)) await measure({ ...target, duration: 2, connections });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, target] of Object.entries(targets)) {
        rounds[name].push(await measure({ ...target, duration, connections }));
      }
    }
    const diff = summarise(rounds.diff);
    const baseline = summarise(rounds.hello);
    const ratio = diff.requestsPerSecond / baseline.requestsPerSecond;
    const result = {
      benchmark: 'server',
      database: databaseUrl ? 'postgresql' : 'pglite',
      entities: 1000,
      rounds: ROUNDS,
      durationSecondsPerRound: duration,
      connections,
      diffNothingNew: diff,
      helloWorld: baseline,
      ratio: Math.round(ratio * 1000) / 1000,
      ratioPerRound: rounds.diff.map(
        (measured, i) => Math.round((measured.requestsPerSecond / rounds.hello[i].requestsPerSecond) * 1000) / 1000,
      ),
      target: 0.4,
      meetsTarget: ratio >= 0.4,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await hello.stop();
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Median requests per second and median p99 of the rounds. */
function summarise(measurements) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return {
    requestsPerSecond: median(measurements.map((m) => m.requestsPerSecond)),
    latencyP99Ms: median(measurements.map((m) => m.latencyP99Ms)),
    latencyAverageMs: median(measurements.map((m) => m.latencyAverageMs)),
    requestsPerSecondPerRound: measurements.map((m) => m.requestsPerSecond),
  };
}

/** A user with key attributes, an authenticator key and `count` entities; returns its token. */
async function seed(baseUrl, email, count) {
  const call = async (method, route, body, token) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { 'X-Client-Package': 'io.ente.auth.web', ...(token ? { 'X-Auth-Token': token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const b64 = (length) => randomBytes(length).toString('base64');
  await call('POST', '/users/ott', { email, purpose: 'signup' });
  const { token } = await call('POST', '/users/verify-email', { email, ott: '123456' });
  await call('PUT', '/users/attributes', { keyAttributes: randomKeyAttributes() }, token);
  await call('POST', '/authenticator/key', { encryptedKey: b64(48), header: b64(24) }, token);
  let sinceTime = 0;
  for (let done = 0; done < count; done += 50) {
    const batch = Array.from({ length: Math.min(50, count - done) }, () =>
      call('POST', '/authenticator/entity', { encryptedData: b64(180), header: b64(24) }, token),
    );
    for (const entity of await Promise.all(batch)) sinceTime = Math.max(sinceTime, entity.updatedAt);
  }
  return { token, sinceTime };
}

async function measure({ url, headers, duration, connections }) {
  const result = await autocannon({ url, headers, duration, connections });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return {
    requestsPerSecond: Math.round(result.requests.average),
    latencyAverageMs: result.latency.average,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
  };
}

async function helloWorld() {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  console.log(`hello world listening on ${address}`);
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
}

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}
