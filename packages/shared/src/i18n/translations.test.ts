// Every key of every namespace exists, non-empty, in every locale, with the same placeholders, and
// no locale has keys that en-US lacks. Also: the keys the shell and the landing pages use exist.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultLocale, supportedLocales } from './locales.ts';

const localesDir = path.join(__dirname, 'locales');
const namespaces = ['common', 'errors', 'accounts'];

test('each locale has a folder and nothing else is there', () => {
  expect(readdirSync(localesDir).sort()).toEqual([...supportedLocales].sort());
});

describe.each(namespaces)('namespace %s', (ns) => {
  const english = flatten(readLocaleFile(defaultLocale, ns));

  test('en-US has no empty value', () => {
    for (const [key, value] of Object.entries(english)) expect([key, value.trim().length > 0]).toEqual([key, true]);
  });

  test.each(supportedLocales.filter((locale) => locale !== defaultLocale))(
    '%s has exactly the keys of en-US',
    (locale) => {
      const translated = flatten(readLocaleFile(locale, ns));
      const missing = Object.keys(english).filter((key) => !(key in translated));
      const extra = Object.keys(translated).filter((key) => !(key in english));
      const empty = Object.keys(translated).filter((key) => translated[key]?.trim() === '');
      expect({ missing, extra, empty }).toEqual({ missing: [], extra: [], empty: [] });
    },
  );

  test.each(supportedLocales.filter((locale) => locale !== defaultLocale))('%s keeps the placeholders', (locale) => {
    const translated = flatten(readLocaleFile(locale, ns));
    const wrong = Object.keys(english).filter(
      (key) => translated[key] !== undefined && placeholders(translated[key]) !== placeholders(english[key] ?? ''),
    );
    expect(wrong).toEqual([]);
  });

  test.each(supportedLocales.filter((locale) => locale !== defaultLocale))('%s is translated, not copied', (locale) => {
    const translated = flatten(readLocaleFile(locale, ns));
    const keys = Object.keys(english);
    if (keys.length < 4) return;
    // Brand names, "OK" and the like may stay as they are; most text may not.
    const copied = keys.filter((key) => translated[key] === english[key]);
    expect(copied.length).toBeLessThanOrEqual(keys.length / 2);
  });
});

test('the keys the shell and the pages use exist in common', () => {
  const common = flatten(readLocaleFile(defaultLocale, 'common'));
  const used = new Set([
    ...['title_auth', 'title_accounts', 'title_photos', 'title_cast', 'theme_light', 'theme_dark'],
    ...keysUsedIn(path.join(__dirname, '..'), /\bt\('([^']+)'/g),
    ...keysUsedIn(path.join(__dirname, '../../../../apps'), /(?:headingKey|bodyKey)="([^"]+)"/g),
  ]);
  expect([...used].filter((key) => !(key in common))).toEqual([]);
  // The scan found the apps' pages and our components.
  expect(used.has('codes_coming_soon')).toBe(true);
  expect(used.has('OFFLINE_MSG')).toBe(true);
});

function readLocaleFile(locale: string, ns: string): unknown {
  return JSON.parse(readFileSync(path.join(localesDir, locale, `${ns}.json`), 'utf8'));
}

/** Nested objects become dotted keys (i18next's key separator). */
function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  if (typeof value !== 'object' || value === null) throw new Error(`Not a string or object at "${prefix}"`);
  return Object.assign(
    {},
    ...Object.entries(value).map(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key)),
  ) as Record<string, string>;
}

function placeholders(text: string): string {
  return (text.match(/\{\{[^}]+\}\}|<\/?\d+>/g) ?? []).sort().join(' ');
}

function keysUsedIn(dir: string, pattern: RegExp): string[] {
  const keys: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
    if (file.includes('node_modules') || file.includes(`${path.sep}.next${path.sep}`)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) if (match[1]) keys.push(match[1]);
  }
  return keys;
}
