// Numeric limits of the protocol that both sides agree on.

export const limits = {
  /** memLimit × opsLimit of every accepted password derivation (docs/protocol.md#password-kdf). */
  kdfStrength: 4294967296,
  /** The memory floor of a sensitive derivation: 128 MiB. */
  minMemLimit: 134217728,
  /** Upper bounds that only keep numbers sane (libsodium's own maxima are larger). */
  maxMemLimit: 4294967296,
  maxOpsLimit: 4294967295,
  /** GET /authenticator/entity/diff `limit`. */
  minDiffLimit: 1,
  maxDiffLimit: 5000,
  /** Base64 length cap of an authenticator entity's `encryptedData` (about 192 KiB of ciphertext). */
  maxEntityDataB64: 262144,
  /** Base64 length cap of a user entity's `encryptedData` (576 KiB of ciphertext: a body stays under the 1 MiB
   * default body limit) and of its key's and header's fields (docs/protocol.md#user-entities). */
  maxUserEntityDataB64: 786432,
  maxUserEntityKeyFieldB64: 256,
  /** OTT: usable live codes per (e-mail, app); wrong guesses, from any app, that kill a code (docs/protocol.md#e-mail-code-rules). */
  maxLiveOtts: 10,
  maxOttWrongAttempts: 20,
  /** SRP: wrong M1 per session, unverified sessions per srpUserID and client address per hour (docs/protocol.md#srp-login). */
  maxSrpAttempts: 5,
  maxUnverifiedSrpSessionsPerHour: 10,
  /** Two-factor: wrong codes per 2FA session; lifetime of sessions and setup secrets (docs/protocol.md#second-factor-and-srp-limits). */
  maxTwoFactorWrongAttempts: 10,
  twoFactorSessionMinutes: 10,
  /** Passkeys (docs/protocol.md#passkeys): live passkeys per user, name length in UTF-8 bytes, lifetimes. */
  maxPasskeys: 10,
  maxPasskeyNameBytes: 256,
  passkeyLoginSessionMinutes: 10,
  passkeyRegistrationCeremonySeconds: 300,
  passkeyLoginCeremonySeconds: 120,
  accountsTokenMinutes: 30,
  /** Tokens unused for longer than this are refused (docs/protocol.md#auth-tokens). */
  tokenIdleDays: 365,
  /** Photos (docs/protocol.md#photos): the largest object (10 GiB), multipart parts (5 MiB–5 GiB, at most
   * 10,000), files or ids in one request, rows in one collection diff page. */
  maxFileBytes: 10 * 1024 * 1024 * 1024,
  minPartBytes: 5 * 1024 * 1024,
  maxPartBytes: 5 * 1024 * 1024 * 1024,
  maxParts: 10_000,
  maxPhotosBatch: 1000,
  collectionDiffPage: 2500,
  /** How far over its quota an account may go with one upload (museum: 50 MB). */
  storageOverflowBytes: 50 * 1024 * 1024,
  /** Base64 caps on encrypted album names, file metadata and magic metadata; object key length. */
  maxEncryptedNameB64: 8192,
  maxFileMetadataB64: 262144,
  maxMagicMetadataB64: 262144,
  maxObjectKeyLength: 1024,
  /** Trash (docs/protocol.md#trash): rows in one trash diff page, ids in one /trash/delete; days in the trash. */
  trashDiffPage: 2500,
  trashDays: 30,
  /** Public links (docs/protocol.md#public-links): the largest device limit (museum's range is 0–50). */
  maxLinkDeviceLimit: 50,
} as const;
