import { savedLogs } from '../log.ts';
import { getData, removeData, setData } from './local-storage.ts';
import { getSessionData, removeSessionData, setSessionData } from './session-storage.ts';

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

test('theme and locale are stored as JSON strings', () => {
  setData('theme', 'light');
  setData('locale', 'fr-FR');
  expect(localStorage.getItem('theme')).toBe('"light"');
  expect(localStorage.getItem('locale')).toBe('"fr-FR"');
  expect(getData('theme')).toBe('light');
  expect(getData('locale')).toBe('fr-FR');
  localStorage.setItem('theme', '"dark"');
  expect(getData('theme')).toBe('dark');
});

test('flag and referral records round-trip', () => {
  setData('isFirstLogin', { status: true });
  setData('referralSource', { source: 'friend' });
  expect(localStorage.getItem('isFirstLogin')).toBe('{"status":true}');
  expect(getData('isFirstLogin')).toEqual({ status: true });
  expect(getData('referralSource')).toEqual({ source: 'friend' });
  removeData('isFirstLogin');
  expect(localStorage.getItem('isFirstLogin')).toBeNull();
  expect(getData('isFirstLogin')).toBeUndefined();
});

test('a value of the wrong shape reads as undefined and is logged', () => {
  localStorage.setItem('theme', '"blue"');
  expect(getData('theme')).toBeUndefined();
  localStorage.setItem('isFirstLogin', '{"status":"yes"}');
  expect(getData('isFirstLogin')).toBeUndefined();
  expect(savedLogs().map((entry) => entry.logLine)).toEqual([
    '[warn] Ignoring the stored value of theme: unexpected shape',
    '[warn] Ignoring the stored value of isFirstLogin: unexpected shape',
  ]);
});

test('a value that is not JSON reads as undefined', () => {
  localStorage.setItem('theme', 'dark');
  expect(getData('theme')).toBeUndefined();
  expect(savedLogs().at(-1)?.logLine).toBe('[warn] Ignoring the stored value of theme: it is not JSON');
});

test('session keys are typed JSON in session storage', () => {
  const wrapped = { encryptedData: 'e', key: 'k', nonce: 'n' };
  setSessionData('encryptionKey', wrapped);
  setSessionData('inflightPasskeySessionID', 'session-1');
  expect(JSON.parse(sessionStorage.getItem('encryptionKey')!)).toEqual(wrapped);
  expect(localStorage.getItem('encryptionKey')).toBeNull();
  expect(getSessionData('encryptionKey')).toEqual(wrapped);
  expect(getSessionData('inflightPasskeySessionID')).toBe('session-1');
  sessionStorage.setItem('keyEncryptionKey', '{"key":"k"}');
  expect(getSessionData('keyEncryptionKey')).toBeUndefined();
  removeSessionData('encryptionKey');
  expect(getSessionData('encryptionKey')).toBeUndefined();
});
