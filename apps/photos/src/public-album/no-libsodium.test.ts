// A public album's visit never loads libsodium (docs/decisions.md, what a public link's visit loads): every module the
// /shared-albums page can reach — its lazy parts (the album, the viewer, the downloads), the workers it starts and
// what they import, dynamic imports included — is walked from the source, and none is libsodium or imports it. The
// bundle bench's --check says the same of the built visit (bench/bundle-size.mjs, libsodium in a first load).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, test } from '@jest/globals';

const repo = path.resolve(__dirname, '../../../..');
const app = path.resolve(__dirname, '../..');
const workspaces: Record<string, string> = {
  '@ente/crypto': 'packages/crypto/src',
  '@ente/shared': 'packages/shared/src',
  '@ente/protocol': 'packages/protocol/src',
  '@ente/accounts': 'packages/accounts/src',
};

/** Every module specifier a file names with a value import: static, re-export, import(), a worker's new URL(). */
function specifiersOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  const patterns = [
    /^\s*import\s+(?!type\b)(?:[\s\S]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
    /^\s*export\s+(?!type\b)[\s\S]*?\sfrom\s+['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /new\s+URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/** A file of ours for `specifier` from `file`, or the package name of a dependency. */
function resolve(specifier: string, file: string): { file: string } | { dependency: string } {
  if (specifier.startsWith('.')) return { file: path.resolve(path.dirname(file), specifier) };
  for (const [name, dir] of Object.entries(workspaces)) {
    if (specifier === name) return { file: path.join(repo, dir, 'index.ts') };
    if (specifier.startsWith(`${name}/`)) return { file: path.join(repo, dir, specifier.slice(name.length + 1)) };
  }
  const parts = specifier.split('/');
  return { dependency: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]! };
}

/** The modules reachable from `entries`, each with the path that reached it first, and the dependencies met. */
function reachable(entries: string[]) {
  const via = new Map<string, string[]>(entries.map((entry) => [entry, [entry]]));
  const dependencies = new Map<string, string[]>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (!existsSync(file)) throw new Error(`${path.relative(repo, file)} is named but missing`);
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      const target = resolve(specifier, file);
      const trail = [...via.get(file)!];
      if ('dependency' in target) {
        if (!dependencies.has(target.dependency)) dependencies.set(target.dependency, [...trail, target.dependency]);
      } else if (!via.has(target.file) && /\.(ts|tsx)$/.test(target.file)) {
        via.set(target.file, [...trail, target.file]);
        queue.push(target.file);
      }
    }
  }
  return { via, dependencies };
}

describe('the /shared-albums visit', () => {
  const { via, dependencies } = reachable([path.join(app, 'src/pages/shared-albums.tsx')]);
  const shown = (trail: string[]) =>
    trail.map((file) => (path.isAbsolute(file) ? path.relative(repo, file) : file)).join(' → ');

  test('reaches the album, the viewer, the downloads and the media worker (the walk sees what it guards)', () => {
    const files = [...via.keys()].map((file) => path.relative(app, file));
    expect(files).toEqual(
      expect.arrayContaining([
        'src/app/SharedAlbumPage.tsx',
        'src/app/SharedAlbumView.tsx',
        'src/public-album/album-job.ts',
        'src/public-album/album-files.ts',
        'src/media/media-worker.ts',
        'src/download/downloads.ts',
      ]),
    );
    expect(files.some((file) => file.startsWith('src/components/viewer/'))).toBe(true);
    expect([...via.keys()]).toContain(path.join(repo, 'packages/crypto/src/open.ts'));
    expect([...via.keys()]).toContain(path.join(repo, 'packages/crypto/src/argon2id-wasm.ts'));
  });

  test('never reaches libsodium, nor the crypto worker that loads it', () => {
    const libsodium = [...dependencies.entries()].filter(([name]) => name.startsWith('libsodium'));
    expect(libsodium.map(([, trail]) => shown(trail))).toEqual([]);
    const crypto = (name: string) => path.join(repo, 'packages/crypto/src', name);
    const sodiumModules = [crypto('sodium.ts'), crypto('index.ts'), crypto('worker.ts')].filter((file) =>
      via.has(file),
    );
    expect(sodiumModules.map((file) => shown(via.get(file)!))).toEqual([]);
  });
});
