// Real server processes for the tests that need them (scale-out, SIGKILL durability): `node --import
// tsx src/main.ts` with an environment of exactly the settings given (nothing inherited), ready once it
// prints its "listening on" line.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { suiteDatabaseUrl } from './config.ts';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends `signal` and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `env`: the server's settings besides address and log level (its database in particular). */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  // process.execPath is absolute, so the child needs no PATH.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

/** A PostgreSQL for tests that need one even when the suite runs on PGlite: DATABASE_URL or a private one. */
export async function testPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const url = suiteDatabaseUrl();
  if (url) return { url, stop: async () => {} };
  const { startPostgres } = await import('../../../../scripts/postgres.mjs');
  return startPostgres();
}
