// Lint for the whole repository. Besides the usual rules it enforces the dependency direction of the
// layout: protocol, crypto ← shared ← accounts ← apps; the server imports only protocol and crypto;
// no app imports another; only packages/crypto touches libsodium and the SRP library; only each
// workspace's config module reads process.env.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import path from 'node:path';

const cryptoLibraries = {
  group: ['libsodium-wrappers', 'libsodium-wrappers-sumo', 'fast-srp-hap'],
  message: 'Only packages/crypto may import libsodium or the SRP library.',
};
const apps = {
  group: ['@ente/app-*', '@ente/server', '**/apps/**'],
  message: 'Nothing imports an app.',
};
const above = (names, who) => ({
  group: names.flatMap((name) => [`@ente/${name}`, `@ente/${name}/*`]),
  message: `${who} may not import ${names.join(', ')} (see the dependency direction in DESIGN.md).`,
});
const restrict = (files, ...patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

// A relative import must stay inside its own workspace; crossing into another goes through the package
// name, where the rules above apply. The browser tests and benchmarks may use the scripts (they start the
// stack the way `npm start` does).
const workspaceOf = (file) => /^(?:apps|packages)\/[^/]+|^[^/]+/.exec(path.relative(import.meta.dirname, file))?.[0];
const ownWorkspace = {
  rules: {
    'relative-imports': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const check = (node) => {
          const target = node.source?.value;
          if (typeof target !== 'string' || !target.startsWith('.')) return;
          const from = workspaceOf(context.filename);
          const to = workspaceOf(path.resolve(path.dirname(context.filename), target));
          if (from !== to && !(to === 'scripts' && ['e2e', 'bench'].includes(from)))
            context.report({ node, message: `Relative import leaves the workspace ${from}: ${target}` });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/.next/**',
      '**/out/**',
      '**/.turbo/**',
      '**/next-env.d.ts',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read the environment only in the config module.' },
      ],
    },
  },
  { plugins: { workspace: ownWorkspace }, rules: { 'workspace/relative-imports': 'error' } },
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  restrict(['**/*'], cryptoLibraries, apps),
  restrict(['packages/crypto/**'], apps, above(['shared', 'accounts', 'protocol'], 'crypto')),
  restrict(['packages/protocol/**'], cryptoLibraries, apps, above(['shared', 'accounts', 'crypto'], 'protocol')),
  restrict(['packages/shared/**'], cryptoLibraries, apps, above(['accounts'], 'shared')),
  restrict(['apps/server/**'], cryptoLibraries, apps, above(['shared', 'accounts'], 'The server')),
  {
    // The places allowed to read the environment.
    files: [
      '**/src/config.ts',
      'scripts/**',
      'e2e/**',
      'bench/**',
      'config/**',
      '**/*.config.{js,mjs,cjs,ts}',
      '**/*.test.{ts,tsx}',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
