// A throwaway PostgreSQL for tests: a fresh cluster in a temporary folder, listening only on a free
// loopback port, run as the `postgres` user when we are root. The version is pinned to 15, the one
// production runs and the migrations are written for: Debian's `postgresql-15` package is installed when
// its initdb is missing (Debian 12 serves it). Where no `postgresql-15` package exists, it falls back to
// the newest installed version, or Debian's `postgresql`, and says which one runs (`version`, also in
// `npm test`'s step name). Never touches the system's own clusters (/etc/postgresql).
// Node builtins only.
//
//   import { startPostgres } from './postgres.mjs';
//   const pg = await startPostgres();   // pg.url = postgres://postgres@127.0.0.1:PORT/postgres, pg.version = '15.18'
//   await pg.stop();                    // stops the server and deletes its folder
//
// CLI:
//   node scripts/postgres.mjs start            prints DATABASE_URL=…, runs until Ctrl-C, then cleans up
//   node scripts/postgres.mjs run -- CMD ARGS  runs CMD with DATABASE_URL set, then cleans up
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { quietEnv } from './config.mjs';

/** The major version production runs (docs/architecture.md#the-server). */
export const pinnedMajor = '15';

/**
 * Starts a private PostgreSQL cluster and resolves to `{url, version, stop, dataDir}`.
 * @param {{ log?: (line: string) => void }} [options]
 */
export async function startPostgres(options = {}) {
  const log = options.log ?? (() => {});
  const bin = ensurePostgresBinaries(log);
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? postgresUser() : undefined;

  const root = mkdtempSync(path.join(os.tmpdir(), 'ente-postgres-'));
  const dataDir = path.join(root, 'data');
  const socketDir = path.join(root, 'socket');
  mkdirSync(dataDir, { mode: 0o700 });
  mkdirSync(socketDir);
  if (owner) for (const dir of [root, dataDir, socketDir]) chownSync(dir, owner.uid, owner.gid);

  const run = (command, args) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`${path.basename(command)} failed (${result.status}): ${result.stderr || result.stdout}`);
    }
  };
  const cleanup = () => rmSync(root, { recursive: true, force: true });

  try {
    log(`initdb in ${dataDir}`);
    run(path.join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
    const port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${socketDir}`,
      '-c listen_addresses=127.0.0.1',
      // A test cluster: speed over crash safety of the cluster itself.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-l', path.join(root, 'server.log'), '-o', settings, '-w', 'start']);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const version = postgresVersion(bin);
    log(`PostgreSQL ${version} listening: ${url}`);
    if (!version.startsWith(`${pinnedMajor}.`)) {
      log(`Warning: PostgreSQL ${version} runs, not ${pinnedMajor} (no postgresql-${pinnedMajor} package here).`);
    }

    let stopped = false;
    return {
      url,
      version,
      dataDir,
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
        } finally {
          cleanup();
        }
      },
    };
  } catch (error) {
    const serverLog = path.join(root, 'server.log');
    if (existsSync(serverLog)) log(readFileSync(serverLog, 'utf8'));
    cleanup();
    throw error;
  }
}

const binBase = '/usr/lib/postgresql';

/**
 * The bin folder of PostgreSQL 15, installing Debian's postgresql-15 if it is missing; where that
 * package does not exist, the newest installed version, or Debian's default `postgresql`.
 */
function ensurePostgresBinaries(log) {
  const pinned = path.join(binBase, pinnedMajor, 'bin');
  if (existsSync(path.join(pinned, 'initdb'))) return pinned;
  log(`PostgreSQL ${pinnedMajor} is not installed; installing Debian’s postgresql-${pinnedMajor} package (apt-get)…`);
  aptGet(['update', '-qq']);
  if (aptGet(['install', '-y', '-qq', '--no-install-recommends', `postgresql-${pinnedMajor}`])) return pinned;
  const newest = newestPostgresBin();
  if (newest) return newest;
  log(`No postgresql-${pinnedMajor} package here; installing Debian’s default postgresql (apt-get)…`);
  if (!aptGet(['install', '-y', '-qq', '--no-install-recommends', 'postgresql'])) {
    throw new Error('apt-get install postgresql failed');
  }
  const installed = newestPostgresBin();
  if (!installed) throw new Error(`postgresql was installed but no initdb was found under ${binBase}`);
  return installed;
}

/** Runs apt-get (through sudo unless root); true when it succeeded. */
function aptGet(args) {
  const [file, argv] = process.getuid?.() === 0 ? ['apt-get', args] : ['sudo', ['apt-get', ...args]];
  const result = spawnSync(file, argv, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...quietEnv, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

function newestPostgresBin() {
  if (!existsSync(binBase)) return undefined;
  const versions = readdirSync(binBase)
    .filter((version) => existsSync(path.join(binBase, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(binBase, versions[0], 'bin') : undefined;
}

/** "15.18" from `postgres --version` ("postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"). */
function postgresVersion(bin) {
  const result = spawnSync(path.join(bin, 'postgres'), ['--version'], { encoding: 'utf8' });
  return /\(PostgreSQL\) (\S+)/.exec(result.stdout)?.[1] ?? `${path.basename(path.dirname(bin))} (version unknown)`;
}

function postgresUser() {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) throw new Error('running as root, but there is no `postgres` user');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function main(argv) {
  const [mode, ...rest] = argv;
  if (mode !== 'start' && mode !== 'run') {
    console.error('usage: node scripts/postgres.mjs start | run -- COMMAND [ARGS…]');
    process.exit(2);
  }
  const pg = await startPostgres({ log: (line) => console.error(line) });
  const finish = async (code) => {
    await pg.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void finish(130));
  process.on('SIGTERM', () => void finish(143));
  if (mode === 'start') {
    console.log(`DATABASE_URL=${pg.url}`);
    console.error('Press Ctrl-C to stop and delete it.');
    setInterval(() => {}, 1 << 30);
    return;
  }
  const command = rest[0] === '--' ? rest.slice(1) : rest;
  if (command.length === 0) {
    console.error('run: no command given');
    await finish(2);
  }
  const child = spawn(command[0], command.slice(1), {
    stdio: 'inherit',
    env: { ...quietEnv, DATABASE_URL: pg.url },
  });
  child.on('exit', (code, signal) => void finish(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
