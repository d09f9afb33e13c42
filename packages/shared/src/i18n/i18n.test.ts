import {
  changeLocale,
  currentLocale,
  declareAppLocales,
  i18n,
  isI18nReady,
  isNamespaceLoaded,
  loadNamespace,
  setupI18n,
  subscribeI18nReady,
} from './i18n.ts';

// Fetching German fails, as a chunk can when the network goes away.
jest.mock('./locales/de-DE/common.json', () => {
  throw new Error('ChunkLoadError');
});
jest.mock('../log.ts', () => ({ log: { info: jest.fn(), warn: jest.fn(), error: jest.fn() } }));

// An app's own namespaces, as createApp declares them (here the shell's texts under other names): `sample`, and
// `whole` in two files (common and errors), whose `piece` (the errors file) a page can fetch alone.
declare module './i18n.ts' {
  interface AppResources {
    sample: { logout: string };
    whole: { logout: string; unknown: string };
  }
  interface AppNamespaceParts {
    piece: true;
  }
}
type JsonModule = { default: Record<string, string> };
const commonFile = (locale: string): Promise<JsonModule> => import(`./locales/${locale}/common.json`);
const errorsFile = (locale: string): Promise<JsonModule> => import(`./locales/${locale}/errors.json`);
declareAppLocales({
  sample: commonFile,
  whole: async (locale) => ({ ...(await commonFile(locale)).default, ...(await errorsFile(locale)).default }),
  piece: { partOf: 'whole', fetch: errorsFile },
});

afterEach(() => localStorage.clear());

test('en-US is there from the start, before any setup', () => {
  expect(i18n.isInitialized).toBe(true);
  expect(i18n.t('logout')).toBe('Log out');
  expect(isI18nReady()).toBe(false);
});

test('a saved locale that cannot be fetched leaves en-US, and the app still becomes ready', async () => {
  localStorage.setItem('locale', '"de-DE"');
  const listener = jest.fn();
  subscribeI18nReady(listener);
  await setupI18n();
  expect(isI18nReady()).toBe(true);
  expect(listener).toHaveBeenCalledTimes(1);
  expect(currentLocale()).toBe('en-US');
  // It runs once.
  await setupI18n();
  expect(listener).toHaveBeenCalledTimes(1);
});

test('other locales are fetched only when chosen, then saved', async () => {
  expect(i18n.hasResourceBundle('ru-RU', 'common')).toBe(false);
  await changeLocale('ru-RU');
  expect(i18n.hasResourceBundle('ru-RU', 'common')).toBe(true);
  expect(currentLocale()).toBe('ru-RU');
  expect(i18n.t('logout')).toBe('Выйти');
  expect(localStorage.getItem('locale')).toBe('"ru-RU"');
  expect(document.documentElement.lang).toBe('ru-RU');
});

test('a locale that cannot be fetched is not switched to, and the choice is not saved', async () => {
  await changeLocale('en-US');
  await expect(changeLocale('de-DE')).rejects.toThrow();
  expect(currentLocale()).toBe('en-US');
  expect(localStorage.getItem('locale')).toBe('"en-US"');
});

test('an app namespace is fetched only when asked for, for en-US and the locale in use, then with each locale chosen', async () => {
  await changeLocale('fr-FR');
  expect(i18n.hasResourceBundle('en-US', 'sample')).toBe(false);
  expect(i18n.hasResourceBundle('fr-FR', 'sample')).toBe(false);
  await loadNamespace('sample');
  expect(i18n.hasResourceBundle('en-US', 'sample')).toBe(true);
  expect(i18n.hasResourceBundle('fr-FR', 'sample')).toBe(true);
  expect(i18n.t('logout', { ns: 'sample' })).toBe('Se déconnecter');
  expect(i18n.hasResourceBundle('pl-PL', 'sample')).toBe(false);
  await changeLocale('pl-PL');
  expect(i18n.hasResourceBundle('pl-PL', 'sample')).toBe(true);
  expect(i18n.hasResourceBundle('pl-PL', 'common')).toBe(true);
});

test('a part of a namespace is fetched alone into it; the namespace itself then brings the rest', async () => {
  await changeLocale('en-US');
  await loadNamespace('piece');
  expect(isNamespaceLoaded('piece')).toBe(true);
  expect(isNamespaceLoaded('whole')).toBe(false);
  expect(i18n.t('unknown', { ns: 'whole' })).toBe('Something went wrong, please try again.');
  expect(i18n.exists('logout', { ns: 'whole' })).toBe(false);
  // A locale chosen later brings the part in that locale.
  await changeLocale('nl-NL');
  expect(i18n.t('unknown', { ns: 'whole' })).toBe('Er is iets misgegaan, probeer het opnieuw.');
  expect(i18n.exists('logout', { ns: 'whole', lng: 'nl-NL' })).toBe(false);
  await loadNamespace('whole');
  expect(isNamespaceLoaded('whole')).toBe(true);
  expect(i18n.t('logout', { ns: 'whole' })).toBe('Uitloggen');
  expect(i18n.t('unknown', { ns: 'whole' })).toBe('Er is iets misgegaan, probeer het opnieuw.');
});
