const path = require('node:path');

const config = require('../../config/jest.preset.cjs')(__dirname);

// The app's storage and translations declared to the shell before each test file, as its _app does.
config.setupFilesAfterEnv = [...config.setupFilesAfterEnv, path.join(__dirname, 'src/testing/declare-app.ts')];
// client-zip (download/) is published as ES modules only: compiled for jest like msw's dependencies.
config.transformIgnorePatterns = config.transformIgnorePatterns.map((pattern) =>
  pattern.replace('/node_modules/(?!(', '/node_modules/(?!(client-zip|'),
);
module.exports = config;
