// Starts the whole stack once for the run, exactly as `npm start` does (same function, same ports,
// same build settings), with a fresh server database in a temporary folder. Returns the teardown.
import { appendFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startStack } from '../scripts/start.mjs';
import { e2eSettings } from './config.ts';

export default async function globalSetup() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ente-e2e-'));
  // The server's log goes to a file next to the test results, so a failure can be read afterwards.
  const serverLog = path.join(import.meta.dirname, 'test-results', 'server.log');
  await mkdir(path.dirname(serverLog), { recursive: true });
  let stack;
  try {
    stack = await startStack({
      dataDir,
      build: !e2eSettings.skipBuild,
      onServerOutput: (line) => appendFileSync(serverLog, `${line}\n`),
      onUnexpectedExit: (reason) => console.error(`\n✖ ${reason} See ${serverLog}.`),
    });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return async () => {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
