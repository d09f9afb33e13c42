import { savedLogs } from '../log.ts';
import {
  clearSessionStorage,
  removeEncryptionKeyStash,
  removeIsFirstLogin,
  removeKeyAttributes,
  removeKeyEncryptionKeyStash,
  removeSrpSetupAttributes,
  savedEncryptionKeyStash,
  savedInflightPasskeySessionID,
  savedIsFirstLogin,
  savedJustSignedUp,
  savedKeyAttributes,
  savedKeyEncryptionKeyStash,
  savedOriginalKeyAttributes,
  savedReferralSource,
  savedSrpAttributes,
  savedSrpSetupAttributes,
  saveEncryptionKeyStash,
  saveInflightPasskeySessionID,
  saveIsFirstLogin,
  saveJustSignedUp,
  saveKeyAttributes,
  saveKeyEncryptionKeyStash,
  saveOriginalKeyAttributes,
  saveReferralSource,
  saveSrpAttributes,
  saveSrpSetupAttributes,
} from './account-storage.ts';

const keyAttributes = {
  kekSalt: 'AAECAwQFBgcICQoLDA0ODw==',
  opsLimit: 16,
  memLimit: 268435456,
  encryptedKey: 'ek',
  keyDecryptionNonce: 'kn',
  publicKey: 'pk',
  encryptedSecretKey: 'esk',
  secretKeyDecryptionNonce: 'skn',
  masterKeyEncryptedWithRecoveryKey: 'mr',
  masterKeyDecryptionNonce: 'mn',
  recoveryKeyEncryptedWithMasterKey: 'rm',
  recoveryKeyDecryptionNonce: 'rn',
  kekHash: '',
};

const srpAttributes = {
  srpUserID: '00000000-0000-4000-8000-000000000000',
  srpSalt: 'EBESExQVFhcYGRobHB0eHw==',
  memLimit: 268435456,
  opsLimit: 16,
  kekSalt: 'AAECAwQFBgcICQoLDA0ODw==',
  isEmailMFAEnabled: false,
};

const stash = { encryptedData: 'e', key: 'k', nonce: 'n' };

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

test('key attributes are saved as JSON under their keys and read back', () => {
  saveKeyAttributes(keyAttributes);
  saveOriginalKeyAttributes({ ...keyAttributes, opsLimit: 32 });
  expect(JSON.parse(localStorage.getItem('keyAttributes')!)).toEqual(keyAttributes);
  expect(savedKeyAttributes()).toEqual(keyAttributes);
  expect(savedOriginalKeyAttributes()?.opsLimit).toBe(32);
  removeKeyAttributes();
  expect(savedKeyAttributes()).toBeUndefined();
  expect(savedOriginalKeyAttributes()).toBeDefined();
});

test('null recovery fields from the server are dropped before saving', () => {
  saveKeyAttributes({ ...keyAttributes, masterKeyEncryptedWithRecoveryKey: null, kekHash: null });
  const saved = savedKeyAttributes();
  expect(saved).toBeDefined();
  expect(saved).not.toHaveProperty('masterKeyEncryptedWithRecoveryKey');
  expect(saved).not.toHaveProperty('kekHash');
  expect(saved?.masterKeyDecryptionNonce).toBe('mn');
});

test('key attributes of the wrong shape read as absent and are logged', () => {
  localStorage.setItem('keyAttributes', JSON.stringify({ ...keyAttributes, opsLimit: '16' }));
  expect(savedKeyAttributes()).toBeUndefined();
  expect(savedLogs().at(-1)?.logLine).toBe('[warn] Ignoring the stored value of keyAttributes: unexpected shape');
  localStorage.setItem('originalKeyAttributes', JSON.stringify({ kekSalt: 'x' }));
  expect(savedOriginalKeyAttributes()).toBeUndefined();
});

test('SRP setup and SRP attributes are saved and read back, and checked', () => {
  const setup = { srpUserID: 'u', srpSalt: 's', srpVerifier: 'v', loginSubKey: 'l' };
  saveSrpSetupAttributes(setup);
  saveSrpAttributes(srpAttributes);
  expect(savedSrpSetupAttributes()).toEqual(setup);
  expect(savedSrpAttributes()).toEqual(srpAttributes);
  removeSrpSetupAttributes();
  expect(savedSrpSetupAttributes()).toBeUndefined();
  localStorage.setItem('srpAttributes', JSON.stringify({ ...srpAttributes, isEmailMFAEnabled: 'no' }));
  expect(savedSrpAttributes()).toBeUndefined();
});

test('the flags are {status: true} records; absent reads as false', () => {
  expect(savedIsFirstLogin()).toBe(false);
  expect(savedJustSignedUp()).toBe(false);
  saveIsFirstLogin();
  saveJustSignedUp();
  expect(localStorage.getItem('isFirstLogin')).toBe('{"status":true}');
  expect(savedIsFirstLogin()).toBe(true);
  expect(savedJustSignedUp()).toBe(true);
  removeIsFirstLogin();
  expect(savedIsFirstLogin()).toBe(false);
  localStorage.setItem('justSignedUp', '{"status":false}');
  expect(savedJustSignedUp()).toBe(false);
});

test('the referral is kept as {source}', () => {
  saveReferralSource('friend');
  expect(localStorage.getItem('referralSource')).toBe('{"source":"friend"}');
  expect(savedReferralSource()).toBe('friend');
});

test('the wrapped keys live in session storage, not local storage', () => {
  saveEncryptionKeyStash(stash);
  saveKeyEncryptionKeyStash({ ...stash, key: 'k2' });
  expect(JSON.parse(sessionStorage.getItem('encryptionKey')!)).toEqual(stash);
  expect(localStorage.length).toBe(0);
  expect(savedEncryptionKeyStash()).toEqual(stash);
  expect(savedKeyEncryptionKeyStash()?.key).toBe('k2');
  removeKeyEncryptionKeyStash();
  expect(savedKeyEncryptionKeyStash()).toBeUndefined();
  removeEncryptionKeyStash();
  expect(savedEncryptionKeyStash()).toBeUndefined();
});

test('a session value of the wrong shape or not JSON reads as absent and is logged', () => {
  sessionStorage.setItem('encryptionKey', '{"key":1}');
  expect(savedEncryptionKeyStash()).toBeUndefined();
  expect(savedLogs().at(-1)?.logLine).toBe('[warn] Ignoring the session value of encryptionKey: unexpected shape');
  sessionStorage.setItem('keyEncryptionKey', 'nope');
  expect(savedKeyEncryptionKeyStash()).toBeUndefined();
  expect(savedLogs().at(-1)?.logLine).toBe('[warn] Ignoring the session value of keyEncryptionKey: it is not JSON');
});

test('the in-flight passkey session and clearing session storage', () => {
  saveInflightPasskeySessionID('abc=');
  saveEncryptionKeyStash(stash);
  expect(savedInflightPasskeySessionID()).toBe('abc=');
  clearSessionStorage();
  expect(sessionStorage.length).toBe(0);
});

test('a failed write throws', () => {
  const spy = jest.spyOn(Storage.prototype, 'setItem').mockImplementationOnce(() => {
    throw new DOMException('full', 'QuotaExceededError');
  });
  expect(() => saveKeyAttributes(keyAttributes)).toThrow('full');
  spy.mockRestore();
});
