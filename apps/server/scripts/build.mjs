// `npm run build` of the server: bundles src/main.ts and the SRP worker threads' entry (src/srp/work.ts)
// into dist/ as plain JavaScript, so that `npm start` and production run built code: no TypeScript loader
// at run time, in the main thread or in any worker thread. The workspace packages it imports
// (@ente/protocol, @ente/crypto: TypeScript sources) are bundled in; every npm package and node builtin
// stays an import resolved from node_modules at run time. Development and the tests keep running
// src/ through tsx.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(serverRoot, 'dist');

/** Bare imports stay imports, except our own workspaces, whose TypeScript must be compiled in. */
const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@ente/') ? undefined : { path: args.path, external: true },
    );
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: serverRoot,
  // The names are fixed: src/srp/pool.ts starts its threads on dist/srp-worker.js beside dist/main.js.
  entryPoints: { main: 'src/main.ts', 'srp-worker': 'src/srp/work.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [npmPackagesExternal],
  // A CommonJS module bundled into ESM may still call require().
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log(`server built: ${path.relative(process.cwd(), outdir) || '.'}/main.js, srp-worker.js`);
