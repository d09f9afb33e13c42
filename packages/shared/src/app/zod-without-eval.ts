// zod compiles a parser for each object schema with `new Function` (after probing whether eval works)
// unless it is configured jitless before the schema is built. The apps' Content-Security-Policy forbids
// eval, so the probe would be reported as a violation. create-app imports this module first, before any
// module that builds a schema; interpreted parsing is plenty fast for the answers we parse.
import { config } from 'zod/v4/core';

config({ jitless: true });
