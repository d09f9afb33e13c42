// What `npm start` and `npm test` need before they can run, installed on demand so that both work on a
// fresh clone of a fresh machine: the npm dependencies (npm ci) and, for the browser tests, Debian's
// Chromium. Also the small process helpers both scripts share. Node builtins only: this runs before
// node_modules exists.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { quietEnv } from './config.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Installs the npm dependencies when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing npm dependencies (npm ci)…');
  runOrExit('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root });
}

export const chromiumPath = '/usr/bin/chromium';

/** Installs Debian's chromium package when it is missing (the browser tests drive it). */
export function ensureChromium() {
  if (existsSync(chromiumPath)) return;
  console.log('Installing Chromium from Debian (apt-get)…');
  const apt = (...args) =>
    process.getuid?.() === 0 ? runOrExit('apt-get', args) : runOrExit('sudo', ['apt-get', ...args]);
  apt('update', '-qq');
  apt('install', '-y', '-qq', '--no-install-recommends', 'chromium');
}

/** Runs a command to completion with inherited output; exits this process if it fails. */
export function runOrExit(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: quietEnv, ...options });
  if (result.status !== 0) {
    console.error(`\n✖ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

/**
 * Runs a command, streaming its output (unless `echo` is false), and resolves with its exit code and
 * everything it printed.
 * @returns {Promise<{code: number, output: string}>}
 */
export function runCaptured(command, args, { echo = true, ...options } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: quietEnv, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const forward = (stream, target) =>
      stream.on('data', (chunk) => {
        output += chunk;
        if (echo) target.write(chunk);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}
