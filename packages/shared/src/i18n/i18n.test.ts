import {
  changeLocale,
  currentLocale,
  declareAppLocales,
  i18n,
  isI18nReady,
  loadNamespace,
  setupI18n,
  subscribeI18nReady,
} from './i18n.ts';

// Fetching German fails, as a chunk can when the network goes away.
jest.mock('./locales/de-DE/common.json', () => {
  throw new Error('ChunkLoadError');
});
jest.mock('../log.ts', () => ({ log: { info: jest.fn(), warn: jest.fn(), error: jest.fn() } }));

// An app's own namespace, as createApp declares it (here the shell's common texts under another name).
declare module './i18n.ts' {
  interface AppResources {
    sample: { logout: string };
  }
}
declareAppLocales({ sample: (locale) => import(`./locales/${locale}/common.json`) });

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
