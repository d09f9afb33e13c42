/** @jest-environment node */
// The en-US `accounts` texts are in place only where strings.ts was imported (it is not in the shell's first load),
// so every module that shows one must import it; a module outside this package must not show them at all (the
// package would have to be imported for its texts). A miss would show a raw key such as `login_title` in English.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { expect, test } from '@jest/globals';

const root = path.resolve(__dirname, '..', '..', '..');
const ownSource = path.join(root, 'packages', 'accounts', 'src');

/** `useTranslation('accounts')`, `useTranslation(['accounts', …])`, `{ ns: 'accounts' }`, or a key `accounts:…`. */
const usesAccountsTexts = /useTranslation\(\[?'accounts'|ns: 'accounts'|['"`]accounts:/;

/** A file's code without its comment lines. */
const code = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .join('\n');

function sources(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes('node_modules'))
    .map((file) => path.join(folder, file));
}

const workspaces = ['apps', 'packages'].flatMap((parent) =>
  readdirSync(path.join(root, parent)).map((name) => path.join(root, parent, name, 'src')),
);

test('every module of @ente/accounts that shows an accounts text imports strings.ts', () => {
  const users = sources(ownSource).filter((file) => usesAccountsTexts.test(code(file)));
  // The sign-in pages, their forms, the settings and the errors' messages.
  expect(users.length).toBeGreaterThan(20);
  const missing = users.filter((file) => {
    const strings = path.relative(path.dirname(file), path.join(ownSource, 'strings.ts'));
    const specifier = strings.startsWith('.') ? strings : `./${strings}`;
    return !readFileSync(file, 'utf8').includes(`import '${specifier}';`);
  });
  expect(missing.map((file) => path.relative(root, file))).toEqual([]);
});

test('no module outside @ente/accounts shows an accounts text', () => {
  const outside = workspaces
    .filter((folder) => folder !== ownSource && existsSync(folder))
    .flatMap(sources)
    // i18n.ts declares the namespace (addBundledNamespace's `ns: 'accounts'`).
    .filter((file) => file !== path.join(root, 'packages', 'shared', 'src', 'i18n', 'i18n.ts'))
    .filter((file) => usesAccountsTexts.test(code(file)));
  expect(outside.map((file) => path.relative(root, file))).toEqual([]);
});
