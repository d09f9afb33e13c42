// `npm run e2e`: the app builds and the browser tests through turbo, with the build settings of the
// local stack, so that turbo's builds (the e2e task depends on them) are the very builds that
// startStack() in the tests' global setup finds in the cache, instead of builds for the hosted servers.
// Extra arguments go to turbo (e.g. `npm run e2e -- --output-logs=errors-only`).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { quietEnv } from './config.mjs';
import { ensureChromium, ensureDependencies, root } from './setup.mjs';
import { localBuildEnv } from './start.mjs';

ensureDependencies();
ensureChromium();
const result = spawnSync(path.join(root, 'node_modules', '.bin', 'turbo'), ['run', 'e2e', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...quietEnv, ...localBuildEnv() },
});
process.exit(result.status ?? 1);
