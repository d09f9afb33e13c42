// The layer rules on real file paths: every edge the layer table forbids fails in every import form,
// the edges it allows pass, and the environment stays in the config modules.
import path from 'node:path';
import { describe, it } from 'node:test';

import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';

import { layers, layersPlugin, repositoryRoot } from './eslint-layers.mjs';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const ruleTester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
});

const file = (relativePath) => path.join(repositoryRoot, relativePath);

/** A file of each layer, and a specifier by which other workspaces name it. */
const places = {
  protocol: { file: 'packages/protocol/src/users.ts', name: '@ente/protocol/users.ts' },
  crypto: { file: 'packages/crypto/src/box.ts', name: '@ente/crypto' },
  shared: { file: 'packages/shared/src/http.ts', name: '@ente/shared/http.ts' },
  accounts: { file: 'packages/accounts/src/pages/login.tsx', name: '@ente/accounts/pages/login.tsx' },
  app: { file: 'apps/auth/src/pages/auth.tsx', name: '@ente/app-auth' },
  server: { file: 'apps/server/src/app.ts', name: '@ente/server' },
};

/** The ways a module can name another; each must be checked. */
const forms = {
  'a static import': (name) => `import { x } from '${name}';`,
  'a type import': (name) => `import type { X } from '${name}';`,
  'a side-effect import': (name) => `import '${name}';`,
  'a named re-export': (name) => `export { x } from '${name}';`,
  'a star re-export': (name) => `export * from '${name}';`,
  'import()': (name) => `const m = await import('${name}');`,
  'import() of a template': (name) => `const m = await import(\`${name}\`);`,
  'require()': (name) => `const m = require('${name}');`,
  'import = require()': (name) => `import m = require('${name}');`,
  "a type's import()": (name) => `type T = import('${name}').X;`,
  'jest.mock()': (name) => `jest.mock('${name}');`,
};

const refused = (code, filename) => ({ code, filename: file(filename), errors: [{ messageId: 'refused' }] });

// Every layer of the direction in docs/architecture.md#layers against every layer it may not import, in every form.
const forbiddenEdges = [];
for (const [from, fromPlace] of Object.entries(places)) {
  for (const [to, toPlace] of Object.entries(places)) {
    if (from === to || layers[from].includes(to)) continue;
    forbiddenEdges.push([from, to, fromPlace.file, toPlace.name]);
  }
}

describe('layers/imports', () => {
  it('the table forbids what docs/architecture.md#layers forbids, and nothing it allows', () => {
    const forbidden = forbiddenEdges.map(([from, to]) => `${from}→${to}`).sort();
    const expected = [
      ...['crypto', 'shared', 'accounts', 'app', 'server'].map((to) => `protocol→${to}`),
      ...['protocol', 'shared', 'accounts', 'app', 'server'].map((to) => `crypto→${to}`),
      ...['accounts', 'app', 'server'].map((to) => `shared→${to}`),
      ...['app', 'server'].map((to) => `accounts→${to}`),
      'app→server',
      ...['shared', 'accounts', 'app'].map((to) => `server→${to}`),
    ].sort();
    if (JSON.stringify(forbidden) !== JSON.stringify(expected)) {
      throw new Error(`forbidden edges ${forbidden.join(', ')} differ from ${expected.join(', ')}`);
    }
  });

  ruleTester.run('layers/imports: forbidden edges, every import form', layersPlugin.rules.imports, {
    valid: [],
    invalid: forbiddenEdges.flatMap(([, , fromFile, toName]) =>
      Object.values(forms).map((form) => refused(form(toName), fromFile)),
    ),
  });

  ruleTester.run(
    'layers/imports: crypto libraries, apps, testing folders, relative paths',
    layersPlugin.rules.imports,
    {
      valid: [
        // The allowed direction.
        { code: "import { b64 } from '@ente/protocol';", filename: file('packages/shared/src/http.ts') },
        { code: "const c = await import('@ente/crypto');", filename: file('packages/shared/src/worker.ts') },
        { code: "import x from '@ente/shared/log.ts';", filename: file('packages/accounts/src/pages/login.tsx') },
        {
          code: "export { default } from '@ente/accounts/pages/login.tsx';",
          filename: file('apps/photos/src/pages/login.tsx'),
        },
        { code: "import { toB64 } from '@ente/crypto';", filename: file('apps/server/src/routes/srp.ts') },
        // libsodium and SRP in crypto; the same module by every form there.
        { code: "import sodium from 'libsodium-wrappers-sumo';", filename: file('packages/crypto/src/sodium.ts') },
        { code: "const s = await import('fast-srp-hap');", filename: file('packages/crypto/src/srp.ts') },
        // The SRP oracle in the server's tests of its native SRP (production code stays refused, below).
        { code: "import { SRP } from 'fast-srp-hap';", filename: file('apps/server/src/srp/native-srp.test.ts') },
        // The benchmarks sign in as a real client would.
        { code: "import { createSrpClient } from '@ente/crypto';", filename: file('bench/login-cpu.mjs') },
        // Inside one workspace, relative paths and folders named by a template.
        { code: "import { log } from '../log.ts';", filename: file('packages/shared/src/storage/kv.ts') },
        {
          code: 'const m = await import(`./locales/${locale}/${ns}.json`);',
          filename: file('packages/shared/src/i18n/i18n.ts'),
        },
        // Test helpers from test code, here and across workspaces.
        {
          code: "import { renderInShell } from '@ente/shared/testing/render.tsx';",
          filename: file('packages/accounts/src/pages/login.test.tsx'),
        },
        {
          code: "import { srpVector } from '@ente/crypto/testing/vectors.ts';",
          filename: file('apps/server/src/testing/flows.ts'),
        },
        {
          code: "import { fake } from '../testing/fake.ts';",
          filename: file('packages/shared/src/app/create-app.test.tsx'),
        },
        // Tooling: the server suite's throwaway PostgreSQL, the browser tests' stack, the shared presets.
        {
          code: "const pg = await import('../../../../scripts/postgres.mjs');",
          filename: file('apps/server/src/testing/process.ts'),
        },
        { code: "import { startStack } from '../scripts/start.mjs';", filename: file('e2e/global-setup.ts') },
        {
          code: "module.exports = require('../../config/jest.preset.cjs')(__dirname);",
          filename: file('packages/shared/jest.config.cjs'),
        },
        {
          code: "export { default } from '../../config/next.config.mjs';",
          filename: file('apps/cast/next.config.mjs'),
        },
        // Node's own modules and other packages are not ours to layer.
        {
          code: "import { readFile } from 'node:fs/promises'; import z from 'zod';",
          filename: file('packages/protocol/src/users.ts'),
        },
      ],
      invalid: [
        ...['libsodium-wrappers', 'libsodium-wrappers-sumo', 'fast-srp-hap'].flatMap((name) =>
          [
            'packages/shared/src/crypto-worker.ts',
            'packages/accounts/src/srp.ts',
            'apps/server/src/srp/work.ts',
            'apps/auth/src/pages/auth.tsx',
          ].flatMap((from) => [
            refused(`import m from '${name}';`, from),
            refused(`const m = await import('${name}');`, from),
            refused(`const m = require('${name}');`, from),
          ]),
        ),
        refused("import { SRP } from 'fast-srp-hap';", 'apps/auth/src/srp.test.ts'),
        refused("import x from '@ente/app-photos';", 'apps/auth/src/pages/auth.tsx'),
        refused("import x from '../../../photos/src/pages/gallery.tsx';", 'apps/auth/src/pages/auth.tsx'),
        // Test helpers from production code.
        refused("import { renderInShell } from '../testing/render.tsx';", 'packages/shared/src/app/create-app.tsx'),
        refused("const v = await import('@ente/crypto/testing/vectors.ts');", 'apps/server/src/routes/srp.ts'),
        // A relative path into another package, even an allowed one, goes through the package name.
        refused("import { log } from '../../../protocol/src/users.ts';", 'packages/accounts/src/pages/login.tsx'),
        // The scripts are test tooling for the server, not something production code may load.
        refused("const pg = await import('../../../../scripts/postgres.mjs');", 'apps/server/src/db/database.ts'),
        refused("import x from '../../outside.mjs';", 'scripts/start.mjs'),
        // A name that is not written out cannot be checked.
        {
          code: 'const name = "libsodium-wrappers-sumo"; const m = await import(name);',
          filename: file('packages/shared/src/crypto.ts'),
          errors: [{ messageId: 'unchecked' }],
        },
        {
          code: 'const m = require(`${prefix}/accounts`);',
          filename: file('packages/shared/src/crypto.ts'),
          errors: [{ messageId: 'unchecked' }],
        },
      ],
    },
  );
});

describe('layers/environment', () => {
  const reported = (code, filename) => ({ code, filename: file(filename), errors: [{ messageId: 'environment' }] });
  ruleTester.run('layers/environment', layersPlugin.rules.environment, {
    valid: [
      {
        code: 'export const origin = process.env.NEXT_PUBLIC_ENTE_ENDPOINT;',
        filename: file('packages/shared/src/config.ts'),
      },
      { code: 'export const loadConfig = (env = process.env) => env;', filename: file('apps/server/src/config.ts') },
      { code: "process.env.NODE_ENV = 'development';", filename: file('packages/shared/src/log.test.ts') },
      { code: 'const environment = options.env;', filename: file('packages/shared/src/http.ts') },
    ],
    invalid: [
      reported('const url = process.env.DATABASE_URL;', 'apps/server/src/testing/server.ts'),
      reported("const url = process.env['DATABASE_URL'];", 'apps/server/src/db/database.ts'),
      reported('const { env } = process;', 'packages/shared/src/origins.ts'),
      reported("import { env } from 'node:process';", 'packages/shared/src/origins.ts'),
      reported("import proc from 'node:process'; const e = proc.env;", 'scripts/start.mjs'),
      reported("import * as proc from 'process'; const e = proc.env;", 'e2e/global-setup.ts'),
      reported('const e = globalThis.process.env;', 'packages/accounts/src/pages/login.tsx'),
    ],
  });
});
