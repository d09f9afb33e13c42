// Lint for the whole repository: typescript-eslint's strict type-checked rules (types from each
// workspace's tsconfig through the project service), React's hooks rules, and our layer rules
// (config/eslint-layers.mjs: who may import whom, and who may read process.env).
// `npm run lint` runs this with prettier's check (which also sorts imports) and the type check.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import { layersPlugin } from './config/eslint-layers.mjs';

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
      'apps/server/dist/**',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  reactHooks.configs.flat.recommended,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: {
        // The scripts are plain JS; their type declarations (for the TypeScript that imports them)
        // belong to no workspace's program, so they get the default one.
        projectService: { allowDefaultProject: ['scripts/*.d.mts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { layers: layersPlugin },
    rules: {
      'layers/imports': 'error',
      'layers/environment': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Numbers and booleans read naturally in messages and URLs; objects and nullish values do not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `(event) => handler(event)` and `() => setOpen(false)` read as the statements they are; braces
      // would add noise without information. A void value inside another expression is still refused.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // node:test's describe/test return promises that its runner already tracks and awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'suite', 'test', 'it'] },
          ],
        },
      ],
    },
  },
  {
    // In a test, `messages.at(-1)!` states what the test expects to be there; if it is not, the test
    // fails at that line, which is the point. Production code narrows instead.
    files: ['**/*.test.{ts,tsx}', '**/testing/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Plain-JS tooling (scripts, benchmarks, jest and Next configs) is not part of a TypeScript
    // program, so the rules that need types cannot run on it; every other rule does.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
