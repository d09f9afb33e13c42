import { keysKeptOnLogout, registryEntries } from './registry.ts';

const keysOf = (area: string) =>
  registryEntries()
    .filter((entry) => entry.area === area)
    .map((entry) => entry.key)
    .sort();

test('declares the local-storage keys of the spec (apiOrigin lives in kv)', () => {
  const specLocalKeys = [
    'user',
    'keyAttributes',
    'originalKeyAttributes',
    'subscription',
    'familyData',
    'isFirstLogin',
    'justSignedUp',
    'showBackButton',
    'export',
    'userDetails',
    'collectionSortBy',
    'theme',
    'mapEnabled',
    'srpSetupAttributes',
    'srpAttributes',
    'cfProxyDisabled',
    'referralSource',
    'locale',
    'logs',
  ];
  expect(keysOf('local')).toEqual(specLocalKeys.sort());
});

test('declares the session-storage and kv keys', () => {
  expect(keysOf('session')).toEqual(['encryptionKey', 'inflightPasskeySessionID', 'keyEncryptionKey']);
  expect(keysOf('kv')).toEqual(['apiOrigin', 'token', 'userID']);
});

test('logout keeps only logs and the device preferences', () => {
  expect(keysKeptOnLogout('local').sort()).toEqual(['locale', 'logs', 'theme']);
  expect(keysKeptOnLogout('session')).toEqual([]);
  expect(keysKeptOnLogout('kv')).toEqual(['apiOrigin']);
});
