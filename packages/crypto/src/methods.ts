// The method names of the crypto API, without its implementation: client.ts builds the main-thread
// object from them without loading libsodium.
import type { CryptoAPI } from './api.ts';

/** The method names of `CryptoAPI`, checked to be complete. */
export const cryptoMethodNames = [
  'generateKeyAttributes',
  'deriveKEK',
  'deriveSensitiveKEK',
  'makeInteractiveKeyAttributes',
  'decryptMasterKey',
  'openToken',
  'masterKeyFromRecoveryKey',
  'recoveryKeyFromMasterKey',
  'generateRecoveryKeyAttributes',
  'recoveryKeyToWords',
  'recoveryKeyFromInput',
  'generateSrpSetupAttributes',
  'srpClientStart',
  'srpClientProof',
  'srpClientVerify',
  'encryptTwoFactorSecret',
  'decryptTwoFactorSecret',
  'encryptBox',
  'decryptBox',
  'encryptBlobText',
  'decryptBlobText',
  'decryptBlobTexts',
  'encryptBlobTexts',
  'encryptEnteExport',
  'decryptEnteExport',
  'argon2idKey',
  'generateKey',
  'stashKey',
  'unstashKey',
  'prepare',
  'openCollections',
  'openFiles',
  'boxFileKeys',
  'newCollectionKeys',
  'encryptCollectionName',
  'sealCollectionKey',
  'hashLinkPassword',
  'castKeyPair',
  'openCastPayload',
  'dropCastKeyPair',
  'decryptFileBytes',
] as const satisfies readonly (keyof CryptoAPI)[];

export type CryptoMethodName = (typeof cryptoMethodNames)[number];
type UnlistedMethod = Exclude<keyof CryptoAPI, CryptoMethodName>;
/** Fails to compile (naming the method) when a method of `CryptoAPI` is missing from the list. */
export const everyMethodListed: [UnlistedMethod] extends [never] ? true : UnlistedMethod = true;
