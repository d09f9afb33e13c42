import { savedLogs } from '../log.ts';
import { savedLocale, savedTheme, saveLocale, saveTheme } from './local-storage.ts';

afterEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
});

test('the theme is saved under `theme` as a JSON string and read back', () => {
  saveTheme('light');
  expect(localStorage.getItem('theme')).toBe('"light"');
  expect(savedTheme()).toBe('light');
  localStorage.setItem('theme', '"dark"');
  expect(savedTheme()).toBe('dark');
});

test('the locale is saved under `locale` as a JSON string and read back', () => {
  saveLocale('fr-FR');
  expect(localStorage.getItem('locale')).toBe('"fr-FR"');
  expect(savedLocale()).toBe('fr-FR');
});

test('nothing saved reads as undefined', () => {
  expect(savedTheme()).toBeUndefined();
  expect(savedLocale()).toBeUndefined();
});

test('a value of the wrong shape reads as undefined and is logged', () => {
  localStorage.setItem('theme', '"blue"');
  localStorage.setItem('locale', '42');
  expect(savedTheme()).toBeUndefined();
  expect(savedLocale()).toBeUndefined();
  expect(savedLogs().map((entry) => entry.logLine)).toEqual([
    '[warn] Ignoring the stored value of theme: unexpected shape',
    '[warn] Ignoring the stored value of locale: unexpected shape',
  ]);
});

test('a value that is not JSON reads as undefined and is logged', () => {
  localStorage.setItem('theme', 'dark');
  expect(savedTheme()).toBeUndefined();
  expect(savedLogs().at(-1)?.logLine).toBe('[warn] Ignoring the stored value of theme: it is not JSON');
});

test('unreadable storage reads as undefined and is logged', () => {
  jest.spyOn(Storage.prototype, 'getItem').mockImplementationOnce(() => {
    throw new DOMException('denied', 'SecurityError');
  });
  expect(savedTheme()).toBeUndefined();
  expect(savedLogs().at(-1)?.logLine).toMatch(/^\[warn\] Could not read the stored value of theme: SecurityError/);
});

test('a preference that cannot be saved is logged, not thrown', () => {
  jest.spyOn(Storage.prototype, 'setItem').mockImplementationOnce(() => {
    throw new DOMException('full', 'QuotaExceededError');
  });
  expect(() => saveLocale('de-DE')).not.toThrow();
  expect(savedLocale()).toBeUndefined();
  expect(savedLogs().at(-1)?.logLine).toMatch(/^\[warn\] Could not save the locale preference: QuotaExceededError/);
});
