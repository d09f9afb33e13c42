const path = require('node:path');

const config = require('../../config/jest.preset.cjs')(__dirname);

// The app's translations declared to the shell before each test file, as its _app does.
config.setupFilesAfterEnv = [...config.setupFilesAfterEnv, path.join(__dirname, 'src/testing/declare-app.ts')];
module.exports = config;
