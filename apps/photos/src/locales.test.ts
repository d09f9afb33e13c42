import { readFileSync } from 'node:fs';
import path from 'node:path';

import { defaultLocale, supportedLocales } from '@ente/shared/i18n/locales.ts';
import { describeTranslations } from '@ente/shared/testing/translations.ts';

import { photosLocales } from './locales.ts';

const localesDir = path.join(__dirname, 'locales');

describeTranslations(localesDir, Object.keys(photosLocales));

/**
 * The English texts a locale may keep as they are: words that are the same in that language (checked one by one),
 * and the two that hold no word at all (a unit symbol after a number, a name and a reason).
 */
const sameInLanguage: Record<string, readonly string[]> = {
  neutral: ['{{count}} s', '{{name}}: {{reason}}'],
  'de-DE': ['Video', 'Name', 'Pause', 'Downloads', 'Uploads', 'Link'],
  'es-ES': [],
  'fr-FR': ['Sections', 'Photos', 'Albums', 'Dimensions', 'Pause'],
  'nl-NL': ['Albums', 'Video', 'Items: {{count}}', 'Camera', 'Downloads', 'Uploads', 'Link'],
  'pl-PL': ['Link'],
  'pt-BR': ['Downloads', 'Link'],
  'ru-RU': [],
  'zh-CN': [],
};

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.assign(
    {},
    ...Object.entries(value as Record<string, unknown>).map(([key, inner]) =>
      flatten(inner, prefix ? `${prefix}.${key}` : key),
    ),
  ) as Record<string, string>;
}

const texts = (locale: string, ns: string) =>
  flatten(JSON.parse(readFileSync(path.join(localesDir, locale, `${ns}.json`), 'utf8')));

// Stricter than the shared "translated, not copied" (at most half): no text of the photos app stays English in
// another locale unless it is the same word there.
describe.each(Object.keys(photosLocales))('namespace %s', (ns) => {
  const english = texts(defaultLocale, ns);
  test.each(supportedLocales.filter((locale) => locale !== defaultLocale))('%s copies no English text', (locale) => {
    const allowed = new Set([...(sameInLanguage.neutral ?? []), ...(sameInLanguage[locale] ?? [])]);
    const translated = texts(locale, ns);
    const copied = Object.keys(english).filter(
      (key) => translated[key] === english[key] && !allowed.has(english[key] ?? ''),
    );
    expect(copied).toEqual([]);
  });
});
