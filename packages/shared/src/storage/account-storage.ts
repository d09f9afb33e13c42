// The accessors of the account's keys in local and session storage (docs/protocol.md#local-storage,
// docs/protocol.md#session-storage): key attributes, SRP attributes, the sign-in flags and referral,
// and the wrapped keys of this tab. `saved…` reads (a missing, unparsable or wrongly shaped value reads
// as undefined and is logged), `save…` writes (a failure throws: a flow must not go on believing it
// stored a key), `remove…` deletes. Wrapping and unwrapping the session keys is the crypto worker's
// job (stashKey / unstashKey); this module only keeps the wrapped record.
import type { KeyAttributesResponse } from '@ente/protocol/key-attributes.ts';

import { readLocal, readStoredJSON, removeLocal, writeLocal } from './local-storage.ts';
import {
  storageRegistry,
  type SessionKey,
  type SessionValue,
  type StoredKeyAttributes,
  type StoredSrpAttributes,
  type StoredSrpSetupAttributes,
} from './registry.ts';

export type { StoredKeyAttributes, StoredSrpAttributes, StoredSrpSetupAttributes } from './registry.ts';

/** A stored record's known fields, without the index signature of what reads back (extra fields). */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

/** Key attributes to save: as stored, or as the server answered them (unset fields "" or null). */
export type KeyAttributesToSave = Known<StoredKeyAttributes> | KeyAttributesResponse;

/** A key wrapped for session storage: `{encryptedData, key, nonce}`. */
export type StashedKey = Known<SessionValue<'encryptionKey'>>;

/** The local key attributes (the interactive variant after the first login). */
export function savedKeyAttributes(): StoredKeyAttributes | undefined {
  return readLocal('keyAttributes');
}

export function saveKeyAttributes(keyAttributes: KeyAttributesToSave): void {
  writeLocal('keyAttributes', withoutNulls(keyAttributes));
}

export function removeKeyAttributes(): void {
  removeLocal('keyAttributes');
}

/** The key attributes as generated at sign-up (or as the server has them). */
export function savedOriginalKeyAttributes(): StoredKeyAttributes | undefined {
  return readLocal('originalKeyAttributes');
}

export function saveOriginalKeyAttributes(keyAttributes: KeyAttributesToSave): void {
  writeLocal('originalKeyAttributes', withoutNulls(keyAttributes));
}

export function removeOriginalKeyAttributes(): void {
  removeLocal('originalKeyAttributes');
}

/** The SRP verifier that sign-up registers once the e-mail is verified. */
export function savedSrpSetupAttributes(): StoredSrpSetupAttributes | undefined {
  return readLocal('srpSetupAttributes');
}

export function saveSrpSetupAttributes(attributes: Known<StoredSrpSetupAttributes>): void {
  writeLocal('srpSetupAttributes', attributes);
}

export function removeSrpSetupAttributes(): void {
  removeLocal('srpSetupAttributes');
}

/** The `attributes` of `GET /users/srp/attributes` for the signed-in (or signing-in) user. */
export function savedSrpAttributes(): StoredSrpAttributes | undefined {
  return readLocal('srpAttributes');
}

export function saveSrpAttributes(attributes: Known<StoredSrpAttributes>): void {
  writeLocal('srpAttributes', attributes);
}

export function removeSrpAttributes(): void {
  removeLocal('srpAttributes');
}

/** Whether the next password check is this device's first (interactive attributes still to make). */
export function savedIsFirstLogin(): boolean {
  return readLocal('isFirstLogin')?.status === true;
}

export function saveIsFirstLogin(): void {
  writeLocal('isFirstLogin', { status: true });
}

export function removeIsFirstLogin(): void {
  removeLocal('isFirstLogin');
}

/** Whether this browser has just signed up (the recovery key is still to be shown). */
export function savedJustSignedUp(): boolean {
  return readLocal('justSignedUp')?.status === true;
}

export function saveJustSignedUp(): void {
  writeLocal('justSignedUp', { status: true });
}

export function removeJustSignedUp(): void {
  removeLocal('justSignedUp');
}

/** The trimmed referral typed at sign-up, if any. */
export function savedReferralSource(): string | undefined {
  return readLocal('referralSource')?.source;
}

export function saveReferralSource(source: string): void {
  writeLocal('referralSource', { source });
}

export function removeReferralSource(): void {
  removeLocal('referralSource');
}

/** The wrapped master key of this tab; its presence means "unlocked in this tab". */
export function savedEncryptionKeyStash(): StashedKey | undefined {
  return readSession('encryptionKey');
}

export function saveEncryptionKeyStash(stash: StashedKey): void {
  writeSession('encryptionKey', stash);
}

export function removeEncryptionKeyStash(): void {
  removeSession('encryptionKey');
}

/** The wrapped KEK kept across the second-factor step after an SRP login. */
export function savedKeyEncryptionKeyStash(): StashedKey | undefined {
  return readSession('keyEncryptionKey');
}

export function saveKeyEncryptionKeyStash(stash: StashedKey): void {
  writeSession('keyEncryptionKey', stash);
}

export function removeKeyEncryptionKeyStash(): void {
  removeSession('keyEncryptionKey');
}

/** The passkey session this tab waits for (docs/protocol.md#passkeys). */
export function savedInflightPasskeySessionID(): string | undefined {
  return readSession('inflightPasskeySessionID');
}

export function saveInflightPasskeySessionID(sessionID: string): void {
  writeSession('inflightPasskeySessionID', sessionID);
}

export function removeInflightPasskeySessionID(): void {
  removeSession('inflightPasskeySessionID');
}

/** The accounts app the server named for the passkey sign-in under way. */
export function savedPasskeyAccountsUrl(): string | undefined {
  return readSession('passkeyAccountsUrl');
}

export function savePasskeyAccountsUrl(url: string): void {
  writeSession('passkeyAccountsUrl', url);
}

/** Empties this tab's session storage (a new login starts from nothing unlocked). */
export function clearSessionStorage(): void {
  sessionStorage.clear();
}

/**
 * The server answers unset recovery fields as "" or null; locally they are "" (or absent), which the
 * registry's shape accepts (docs/protocol.md#key-attributes: "", null and absent mean the same).
 */
function withoutNulls(keyAttributes: KeyAttributesToSave): StoredKeyAttributes {
  const entries = Object.entries(keyAttributes).filter(([, value]) => value !== null);
  return Object.fromEntries(entries) as StoredKeyAttributes;
}

function readSession<K extends SessionKey>(key: K): SessionValue<K> | undefined {
  if (typeof sessionStorage === 'undefined') return undefined;
  const shape = storageRegistry.sessionStorage.keys[key].shape;
  return readStoredJSON(sessionStorage, key, shape, 'session value') as SessionValue<K> | undefined;
}

function writeSession<K extends SessionKey>(key: K, value: SessionValue<K>): void {
  sessionStorage.setItem(key, JSON.stringify(value));
}

function removeSession(key: SessionKey): void {
  sessionStorage.removeItem(key);
}
