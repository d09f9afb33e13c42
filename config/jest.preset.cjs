// Shared jest configuration: each workspace's jest.config.cjs calls this with its own directory.
const path = require('node:path');

/** @param {string} rootDir @param {{environment?: 'jsdom' | 'node'}} [options] */
module.exports = function jestConfig(rootDir, options = {}) {
  const environment = options.environment ?? 'jsdom';
  return {
    rootDir,
    testEnvironment: environment === 'jsdom' ? path.join(__dirname, 'jest-env.cjs') : 'node',
    // Don't pick the "browser" export conditions: msw/node must resolve to its Node build.
    testEnvironmentOptions: { customExportConditions: [''] },
    setupFilesAfterEnv: environment === 'jsdom' ? [path.join(__dirname, 'jest-setup.cjs')] : [],
    transform: {
      '^.+\\.(m|c)?(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic' } },
            target: 'es2022',
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    // msw 2 pulls ESM-only dependencies that must be compiled to CommonJS for jest, and @noble/ciphers 2 is ESM only.
    transformIgnorePatterns: [
      '/node_modules/(?!(@noble/ciphers|msw|@mswjs|@open-draft|rettime|until-async|outvariant|strict-event-emitter|headers-polyfill|is-node-process|@bundled-es-modules)/)',
    ],
    moduleNameMapper: { '\\.(css)$': path.join(__dirname, 'jest-style-stub.cjs') },
    testMatch: ['<rootDir>/src/**/*.test.ts?(x)'],
    // The gate runs every workspace's tests at once on two cores; page tests that derive keys for real can take
    // several seconds there, far beyond jest's default 5 s.
    testTimeout: 30_000,
  };
};
