import { chooseLocale } from './locales.ts';

describe('chooseLocale', () => {
  test('uses a saved supported locale, whatever the browser says', () => {
    expect(chooseLocale('de-DE', ['fr-FR', 'en-US'])).toBe('de-DE');
    expect(chooseLocale('pt-BR', [])).toBe('pt-BR');
  });

  test('ignores a saved locale that is not supported', () => {
    expect(chooseLocale('it-IT', ['fr-CA'])).toBe('fr-FR');
    expect(chooseLocale('fr', ['nl-BE'])).toBe('nl-NL');
    expect(chooseLocale(42, ['ru'])).toBe('ru-RU');
    expect(chooseLocale(undefined, ['pl-PL'])).toBe('pl-PL');
  });

  test.each([
    ['en', 'en-US'],
    ['en-GB', 'en-US'],
    ['fr', 'fr-FR'],
    ['fr-BE', 'fr-FR'],
    ['de-AT', 'de-DE'],
    ['zh', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['nl', 'nl-NL'],
    ['es-MX', 'es-ES'],
    ['pt-BR', 'pt-BR'],
    ['pt-br', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['ru-RU', 'ru-RU'],
    ['pl', 'pl-PL'],
  ])('matches the browser language %s by prefix to %s', (language, locale) => {
    expect(chooseLocale(undefined, [language])).toBe(locale);
  });

  test('takes the first browser language that matches', () => {
    expect(chooseLocale(undefined, ['it-IT', 'ja', 'es-AR', 'de-DE'])).toBe('es-ES');
  });

  test('does not take European Portuguese for Brazilian: the next language decides', () => {
    expect(chooseLocale(undefined, ['pt-PT', 'fr-FR'])).toBe('fr-FR');
    expect(chooseLocale(undefined, ['pt-PT'])).toBe('en-US');
  });

  test('falls back to en-US', () => {
    expect(chooseLocale(undefined, [])).toBe('en-US');
    expect(chooseLocale(undefined, ['it-IT', 'ja-JP'])).toBe('en-US');
    expect(chooseLocale(null, ['xx'])).toBe('en-US');
  });
});
