// zod compiles a parser for each object schema with `new Function` (after probing whether eval works)
// unless it is configured jitless before the schema is built. The apps' Content-Security-Policy forbids
// eval, so the probe would be reported as a violation. create-app imports this module first, before any
// module that builds a schema; interpreted parsing is plenty fast for the answers we parse.
//
// zod keeps its configuration in `globalThis.__zod_globalConfig` (zod/v4/core/core.js: `config()` merges
// into that object, and every copy of zod reads it). Writing it here rather than calling `config()`
// keeps zod itself out of the shell's first load: it loads with the code that parses (the HTTP client).
// zod-without-eval.test.ts checks that zod sees the setting.

declare global {
  var __zod_globalConfig: Record<string, unknown> | undefined;
}

globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });

export {};
