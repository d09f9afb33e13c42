// The repository stands alone: no file points at something outside it (a sibling folder, a
// specification we were given, an issue number, a numbered section of a document that is not here),
// and every reference into docs/ resolves to a file and a heading that exist.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { root } from './setup.mjs';

/** Text files of the repository (tracked, or new and not ignored), without the lockfile and locale data. */
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => file !== '' && existsSync(path.join(root, file)))
  .filter((file) => /\.(?:[cm]?[jt]sx?|md|json|ya?ml)$|(?:^|\/)run$/.test(file))
  .filter((file) => file !== 'package-lock.json' && !file.includes('/locales/'));

const read = (file) => readFileSync(path.join(root, file), 'utf8');

/** Lines of the repository that match `pattern`, as "file:line: text". */
function linesMatching(pattern, { except = [] } = {}) {
  const found = [];
  for (const file of files) {
    if (except.includes(file)) continue;
    read(file)
      .split('\n')
      .forEach((line, index) => {
        if (pattern.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
      });
  }
  return found;
}

// This file names the patterns it refuses.
const self = 'scripts/references.test.mjs';

test('nothing points at a folder beside the repository', () => {
  assert.deepEqual(
    linesMatching(/\.\.\/shared\b|shared\/(?:spec|fixtures)\b|TOOLCHAIN\.md|DESIGN\.md/, { except: [self] }),
    [],
  );
});

test('no numbered section of a document that is not here, and no issue numbers', () => {
  assert.deepEqual(linesMatching(/§|\bissues? #?\d+\b/i, { except: [self] }), []);
});

test('every reference into docs/ names a file and a heading that exist', () => {
  const broken = [];
  for (const file of files) {
    const text = read(file);
    // Repository paths, the form code comments use: docs/protocol.md#srp-login
    const rooted = [...text.matchAll(/\bdocs\/([\w.-]+\.md)(?:#([\w-]+))?/g)].map((m) => ['docs', m[1], m[2], m[0]]);
    // Markdown links, relative to the file: [SRP](../../docs/protocol.md#srp), [x](#anchor)
    const linked = file.endsWith('.md')
      ? [...text.matchAll(/\]\(([^)\s]*?\.md)?(?:#([\w-]+))?\)/g)]
          .filter((m) => m[1] === undefined || !/^[a-z]+:/.test(m[1]))
          .map((m) => [path.dirname(file), m[1] ?? path.basename(file), m[2], m[0]])
      : [];
    for (const [folder, name, anchor, written] of [...rooted, ...linked]) {
      const target = path.normalize(path.join(folder, name));
      if (!existsSync(path.join(root, target))) {
        broken.push(`${file}: ${written} (no ${target})`);
      } else if (anchor !== undefined && !anchorsOf(target).has(anchor)) {
        broken.push(`${file}: ${written} (no heading #${anchor} in ${target})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

const anchorCache = new Map();

/** The anchors GitHub gives the headings of a markdown file. */
function anchorsOf(file) {
  if (!anchorCache.has(file)) {
    const headings = read(file)
      .replace(/```[\s\S]*?```/g, '')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line));
    anchorCache.set(
      file,
      new Set(
        headings.map((line) =>
          line
            .replace(/^#+ /, '')
            .trim()
            .toLowerCase()
            .replace(/[^\p{L}\p{N} _-]/gu, '')
            .replace(/ /g, '-'),
        ),
      ),
    );
  }
  return anchorCache.get(file);
}
