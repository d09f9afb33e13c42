// The server's layers (docs/architecture.md#the-server): routes parse, call services and shape answers;
// services decide and hold the transactions; db/ modules hold the queries; adapters wrap third-party
// protocols. This test reads every module's imports and fails on an edge that skips a layer: a route that
// reaches the database (Kysely, a db/ module, ctx.db) or an adapter, a route that imports another route, a
// service or db module that imports a route, an adapter that reaches the database or a service.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const src = path.join(import.meta.dirname);

/** The non-test modules of a folder under src/, with their text. */
function modulesOf(folder: string) {
  return readdirSync(path.join(src, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.[cm]?[jt]s$/.test(file) && !/\.test\.[cm]?[jt]s$/.test(file))
    .map((file) => ({ name: `${folder}/${file}`, text: readFileSync(path.join(src, folder, file), 'utf8') }));
}

/** Every module specifier a module names: imports, re-exports, import() and require(). */
function specifiersOf(text: string): string[] {
  const found = [];
  for (const match of text.matchAll(/\b(?:from|import|require)\s*\(?\s*['"]([^'"]+)['"]/g)) found.push(match[1] ?? '');
  return found;
}

/** The src/ folder a specifier of a module in `folder` lands in (undefined: a package). */
function folderOf(folder: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const relative = path.relative(src, path.resolve(src, folder, specifier));
  return relative.split(path.sep)[0];
}

/** Fastify itself and its plugins: only http/, routes/ and app.ts may know the framework. */
const fastifyPackages = ['fastify', 'fastify-plugin', '@fastify/cors', '@fastify/compress', '@fastify/helmet'];

function refusals(folder: string, forbidden: { packages?: string[]; folders: string[]; text?: RegExp }): string[] {
  const found = [];
  for (const module of modulesOf(folder)) {
    const inFolder = path.dirname(module.name);
    for (const specifier of specifiersOf(module.text)) {
      const target = folderOf(inFolder, specifier);
      if (target === undefined ? forbidden.packages?.includes(specifier) : forbidden.folders.includes(target)) {
        found.push(`${module.name} imports ${specifier}`);
      }
    }
    if (forbidden.text?.test(module.text)) found.push(`${module.name} matches ${String(forbidden.text)}`);
  }
  return found;
}

test('the specifier reader sees every import form', () => {
  const text = [
    "import { a } from '../db/a.ts';",
    "import type { B } from 'kysely';",
    "export * from './c.ts';",
    "const d = await import('../db/d.ts');",
    "const e = require('e');",
    "import '../f.ts';",
  ].join('\n');
  assert.deepEqual(specifiersOf(text), ['../db/a.ts', 'kysely', './c.ts', '../db/d.ts', 'e', '../f.ts']);
});

test('routes parse, call services and shape: no database, no adapter, no other route', () => {
  assert.deepEqual(
    refusals('routes', {
      packages: ['kysely', 'pg', '@electric-sql/pglite'],
      folders: ['db', 'adapters'],
      text: /\bctx\.db\b/,
    }),
    [],
  );
  for (const module of modulesOf('routes')) {
    const others = specifiersOf(module.text).filter((specifier) => /^\.\/[^/]+$/.test(specifier));
    assert.deepEqual(others, [], `${module.name} imports another route module`);
  }
});

test('services and db modules never import routes; db modules never import services or adapters', () => {
  assert.deepEqual(refusals('services', { folders: ['routes'] }), []);
  assert.deepEqual(refusals('db', { folders: ['routes', 'services', 'adapters', 'http'] }), []);
});

test('services and db modules do not depend on Fastify: routes hand them plain values', () => {
  assert.deepEqual(refusals('services', { packages: fastifyPackages, folders: [] }), []);
  assert.deepEqual(refusals('db', { packages: fastifyPackages, folders: [] }), []);
});

test('adapters wrap a library and nothing of ours that decides or stores', () => {
  assert.deepEqual(
    refusals('adapters', { packages: ['kysely'], folders: ['db', 'services', 'routes', 'http'], text: /\bctx\.db\b/ }),
    [],
  );
});
