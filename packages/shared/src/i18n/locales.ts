// The locales we ship and the rule that picks one for a visitor (docs/product.md#locales): a saved
// supported locale wins; otherwise the first browser language that matches one of ours by prefix;
// otherwise en-US.

export const supportedLocales = [
  'en-US',
  'fr-FR',
  'de-DE',
  'zh-CN',
  'nl-NL',
  'es-ES',
  'pt-BR',
  'ru-RU',
  'pl-PL',
] as const;

export type Locale = (typeof supportedLocales)[number];

export const defaultLocale: Locale = 'en-US';

/**
 * Each locale's name in its own language, for the language menu. These are deliberately not
 * translation keys: a language is always offered under its own name, whatever the current locale.
 */
export const localeNativeNames: Record<Locale, string> = {
  'en-US': 'English',
  'fr-FR': 'Français',
  'de-DE': 'Deutsch',
  'zh-CN': '中文（简体）',
  'nl-NL': 'Nederlands',
  'es-ES': 'Español',
  'pt-BR': 'Português (Brasil)',
  'ru-RU': 'Русский',
  'pl-PL': 'Polski',
};

export function isSupportedLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (supportedLocales as readonly string[]).includes(value);
}

/**
 * The locale to use, given the saved preference (anything) and the browser's preferred languages
 * (`navigator.languages`, most preferred first).
 */
export function chooseLocale(saved: unknown, browserLanguages: readonly string[]): Locale {
  if (isSupportedLocale(saved)) return saved;
  for (const language of browserLanguages) {
    const match = localeForBrowserLanguage(language);
    if (match) return match;
  }
  return defaultLocale;
}

/**
 * The prefixes of docs/product.md#locales. Portuguese is the one language we ship in a single
 * regional variant: `pt-BR…` matches, and so does a bare `pt` (no region said, and Brazilian
 * Portuguese reads far better to a Portuguese speaker than English), but `pt-PT` and other regions
 * do not, as the prefix is `pt-BR` (docs/decisions.md#shell); the next browser language is tried
 * instead. Matching ignores case, since language tags are case-insensitive (BCP 47).
 */
const prefixes: readonly (readonly [prefix: string, locale: Locale])[] = [
  ['en', 'en-US'],
  ['fr', 'fr-FR'],
  ['de', 'de-DE'],
  ['zh', 'zh-CN'],
  ['nl', 'nl-NL'],
  ['es', 'es-ES'],
  ['pt-br', 'pt-BR'],
  ['ru', 'ru-RU'],
  ['pl', 'pl-PL'],
];

function localeForBrowserLanguage(language: string): Locale | undefined {
  const tag = language.trim().toLowerCase();
  if (tag === 'pt') return 'pt-BR';
  return prefixes.find(([prefix]) => tag.startsWith(prefix))?.[1];
}
