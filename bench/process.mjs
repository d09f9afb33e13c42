// Starting a server process for a benchmark: exactly the environment given (nothing inherited), its
// output watched until it says where it listens, and a stop that waits for it to exit.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';

/** Starts `command` with exactly `env` (process.execPath is absolute, so no PATH is needed). */
export async function startProcess(command, args, cwd, env) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)));
  });
  return {
    url,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Builds the API server as `npm start` does (apps/server/scripts/build.mjs: plain JavaScript in dist/) and
 * answers the entry to run, so that a benchmark measures the server people run, not TypeScript through tsx.
 */
export function builtServer(serverRoot) {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: serverRoot, stdio: 'inherit' });
  return path.join(serverRoot, 'dist', 'main.js');
}
