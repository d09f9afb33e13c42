// One shard of the server suite (scripts/test.mjs): imports the test files named on the command line, in
// order, into this one process. Their describe/test blocks join node:test's root and run one after another.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// A file that fails to load fails the run, and the files after it still run.
for (const file of process.argv.slice(2)) {
  try {
    // eslint-disable-next-line layers/imports -- test files, named by scripts/test.mjs
    await import(pathToFileURL(path.resolve(file)).href);
  } catch (error) {
    console.error(`✖ ${file} could not be loaded:`, error);
    process.exitCode = 1;
  }
}
