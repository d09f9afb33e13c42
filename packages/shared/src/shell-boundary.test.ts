// packages/shared is the shell: what one app alone uses lives in that app (docs/architecture.md#layers).
// These tests read the sources: every key the shell's storage registry declares is read by some code, and
// no module of the shell is imported by exactly one app and nothing else.
import fs from 'node:fs';
import path from 'node:path';

import { storageRegistry } from './storage/registry.ts';

const repository = path.resolve(__dirname, '../../..');
const workspaces = ['packages/shared', 'packages/accounts', 'apps/auth', 'apps/accounts', 'apps/photos', 'apps/cast'];
const sharedSource = path.join(repository, 'packages/shared/src');

/** The production sources (no tests, no test helpers) of the workspaces that run in the browser. */
const sources = workspaces
  .flatMap((workspace) => sourceFiles(path.join(repository, workspace, 'src')))
  .map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));

test.each(['localStorage', 'sessionStorage', 'kv'] as const)(
  'every %s key of the registry is read by some code',
  (place) => {
    const registry = path.join(sharedSource, 'storage/registry.ts');
    const unread = Object.keys(storageRegistry[place].keys).filter(
      (key) => !sources.some(({ file, text }) => file !== registry && text.includes(`'${key}'`)),
    );
    expect(unread).toEqual([]);
  },
);

test('no module of the shell is imported by one app alone', () => {
  const importers = new Map<string, Set<string>>();
  for (const { file, text } of sources) {
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      const target = resolveShared(file, specifier ?? '');
      if (target) importers.set(target, (importers.get(target) ?? new Set()).add(workspaceOf(file)));
    }
  }
  const oneAppOnly = [...importers]
    .filter(([, by]) => by.size === 1 && [...by][0]?.startsWith('apps/'))
    .map(([target, by]) => `${path.relative(repository, target)} (${[...by].join()})`);
  expect(oneAppOnly).toEqual([]);
});

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(file);
    return /\.(ts|tsx|json)$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name) ? [file] : [];
  });
}

/** The file of packages/shared/src that `specifier` (in `from`) names, if any. */
function resolveShared(from: string, specifier: string): string | undefined {
  const target = specifier.startsWith('@ente/shared/')
    ? path.join(sharedSource, specifier.slice('@ente/shared/'.length))
    : specifier.startsWith('.')
      ? path.resolve(path.dirname(from), specifier)
      : undefined;
  return target?.startsWith(sharedSource + path.sep) ? target : undefined;
}

function workspaceOf(file: string): string {
  return path.relative(repository, file).split(path.sep).slice(0, 2).join('/');
}
