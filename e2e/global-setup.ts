// Starts the whole stack once for the run, exactly as `npm start` does (same function, same ports,
// same build settings), with a fresh server database in a temporary folder. Returns the teardown.
//
// It also listens on a control endpoint (a random local port) whose `POST /stop` stops the stack:
// the leak scan (tests/leaks.spec.ts, the last project) needs the server stopped to open its
// database folder with PGlite, which allows one process per folder. The folder and the endpoint
// reach the test workers through the environment (handOffStack in config.ts).
import { appendFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startStack } from '../scripts/start.mjs';
import { e2eSettings, handOffStack } from './config.ts';
import { serverLogPath } from './mail.ts';

/**
 * The settings in which the test stack differs from `npm start`: the route rate limits
 * (docs/protocol.md#rate-limits) allow 10 requests per minute per IP and route, and every browser and API
 * call of the suite comes from 127.0.0.1, so the limit is raised (not turned off: the limiter still runs);
 * a cast screen's code lives 10 s (the least the server allows) instead of an hour, so that tests/cast.spec.ts sees one expire.
 */
const serverEnv = { RATE_LIMIT_PER_MINUTE: '1000', CAST_CODE_SECONDS: '10' };

export default async function globalSetup() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ente-e2e-'));
  // The server's log goes to a file next to the test results, so a failure can be read afterwards;
  // the tests read the e-mail codes from it (mail.ts).
  await mkdir(path.dirname(serverLogPath), { recursive: true });
  let stack: Awaited<ReturnType<typeof startStack>>;
  try {
    stack = await startStack({
      dataDir,
      build: !e2eSettings.skipBuild,
      serverEnv,
      onServerOutput: (line) => appendFileSync(serverLogPath, `${line}\n`),
      onUnexpectedExit: (reason) => console.error(`\n✖ ${reason} See ${serverLogPath}.`),
    });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const control = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/stop') {
      stack.stop().then(
        () => response.writeHead(204).end(),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const { port } = control.address() as AddressInfo;
  handOffStack({ dataDir, controlUrl: `http://127.0.0.1:${port}` });

  return async () => {
    await new Promise((resolve) => control.close(resolve));
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
