import { setAppName, type AppName } from '@ente/shared/app-name.ts';

import { homeRoute } from './home.ts';
import {
  hasStashedKEK,
  isUnlockedInThisTab,
  masterKeyOfThisTab,
  saveMasterKeyOfThisTab,
  stashKEK,
  takeStashedKEK,
} from './storage.ts';

const key = 'YGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn8=';

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

test('the masterKey of this tab is wrapped in session storage, never in plain view', async () => {
  expect(isUnlockedInThisTab()).toBe(false);
  expect(await masterKeyOfThisTab()).toBeUndefined();
  await saveMasterKeyOfThisTab(key);
  expect(isUnlockedInThisTab()).toBe(true);
  const stored = sessionStorage.getItem('encryptionKey') ?? '';
  expect(Object.keys(JSON.parse(stored) as object).sort()).toEqual(['encryptedData', 'key', 'nonce']);
  expect(stored).not.toContain(key);
  expect(localStorage.length).toBe(0);
  expect(await masterKeyOfThisTab()).toBe(key);
});

test('a stashed KEK is removed as it is read', async () => {
  await stashKEK(key);
  expect(hasStashedKEK()).toBe(true);
  expect(sessionStorage.getItem('keyEncryptionKey')).not.toContain(key);
  expect(await takeStashedKEK()).toBe(key);
  expect(hasStashedKEK()).toBe(false);
  expect(await takeStashedKEK()).toBeUndefined();
});

test('a wrapped key that does not open reads as absent (and is logged)', async () => {
  sessionStorage.setItem('encryptionKey', JSON.stringify({ encryptedData: 'AAAA', key, nonce: 'AAAA' }));
  expect(await masterKeyOfThisTab()).toBeUndefined();
  expect(localStorage.getItem('logs')).toContain('Could not open the masterKey of this tab');
});

test.each([
  ['auth', '/auth'],
  ['photos', '/gallery'],
  ['accounts', '/passkeys'],
  ['cast', '/'],
] as [AppName, string][])('the home of %s is %s', (app, route) => {
  setAppName(app);
  expect(homeRoute()).toBe(route);
});
