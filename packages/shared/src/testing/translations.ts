// The checks every translation folder passes (the shell's and each app's own namespaces): every key of
// every namespace exists, non-empty, in every locale, with the same placeholders, and no locale has keys
// that en-US lacks. That the code uses only keys of en-US is the type checker's job (i18n.ts types every
// key from the en-US files). Test code only.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { defaultLocale, supportedLocales } from '../i18n/locales.ts';

/** Declares the tests of `localesDir` (`<locale>/<namespace>.json`) for `namespaces`. */
export function describeTranslations(localesDir: string, namespaces: readonly string[]): void {
  test('each locale has a folder and nothing else is there', () => {
    expect(readdirSync(localesDir).sort()).toEqual([...supportedLocales].sort());
  });

  test.each([...supportedLocales])('%s has exactly these namespaces', (locale) => {
    expect(readdirSync(path.join(localesDir, locale)).sort()).toEqual(namespaces.map((ns) => `${ns}.json`).sort());
  });

  function readLocaleFile(locale: string, ns: string): unknown {
    return JSON.parse(readFileSync(path.join(localesDir, locale, `${ns}.json`), 'utf8'));
  }

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

    test.each(supportedLocales.filter((locale) => locale !== defaultLocale))(
      '%s is translated, not copied',
      (locale) => {
        const translated = flatten(readLocaleFile(locale, ns));
        const keys = Object.keys(english);
        if (keys.length < 4) return;
        // Brand names, "OK" and the like may stay as they are; most text may not.
        const copied = keys.filter((key) => translated[key] === english[key]);
        expect(copied.length).toBeLessThanOrEqual(keys.length / 2);
      },
    );
  });
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
