// Kysely's view of the tables created by migrations.ts. int8 columns come back as strings from both
// drivers (see database.ts), so they are typed as such and converted with Number() at the edges.
import type { ColumnType, Generated } from 'kysely';

/**
 * int8: both drivers read it as a decimal string (typed string | number so that comparisons accept
 * numbers); written as a number, bigint or string. Read it through Number().
 */
export type Int8 = ColumnType<string | number, number | string | bigint, number | string | bigint>;
export type GeneratedInt8 = ColumnType<string | number, number | string | bigint | undefined, number | string | bigint>;

export interface Database {
  users: UsersTable;
  key_attributes: KeyAttributesTable;
  tokens: TokensTable;
  otts: OttsTable;
  srp_auth: SrpAuthTable;
  srp_sessions: SrpSessionsTable;
  temp_srp_setup: TempSrpSetupTable;
  two_factor: TwoFactorTable;
  temp_two_factor: TempTwoFactorTable;
  two_factor_sessions: TwoFactorSessionsTable;
  two_factor_used_codes: TwoFactorUsedCodesTable;
  authenticator_key: AuthenticatorKeyTable;
  authenticator_entity: AuthenticatorEntityTable;
  rate_limits: RateLimitsTable;
  ott_sends: OttSendsTable;
  server_secrets: ServerSecretsTable;
  passkeys: PasskeysTable;
  passkey_credentials: PasskeyCredentialsTable;
  webauthn_sessions: WebauthnSessionsTable;
  passkey_login_sessions: PasskeyLoginSessionsTable;
  passkey_recovery: PasskeyRecoveryTable;
  object_ledger: ObjectLedgerTable;
  collections: CollectionsTable;
  collection_shares: CollectionSharesTable;
  files: FilesTable;
  collection_files: CollectionFilesTable;
  photo_clocks: PhotoClocksTable;
  trash: TrashTable;
  public_collection_tokens: PublicCollectionTokensTable;
  public_collection_access_history: PublicCollectionAccessHistoryTable;
  casting: CastingTable;
  user_entity_key: UserEntityKeyTable;
  user_entity_data: UserEntityDataTable;
}

export interface UsersTable {
  user_id: GeneratedInt8;
  email: string;
  source: string | null;
  is_email_mfa_enabled: Generated<boolean>;
  is_two_factor_enabled: Generated<boolean>;
  created_at: Int8;
}

export interface KeyAttributesTable {
  user_id: Int8;
  kek_salt: string;
  kek_hash: Generated<string>;
  encrypted_key: string;
  key_decryption_nonce: string;
  public_key: string;
  encrypted_secret_key: string;
  secret_key_decryption_nonce: string;
  mem_limit: Int8;
  ops_limit: Int8;
  master_key_encrypted_with_recovery_key: string | null;
  master_key_decryption_nonce: string | null;
  recovery_key_encrypted_with_master_key: string | null;
  recovery_key_decryption_nonce: string | null;
  created_at: Int8;
}

export interface TokensTable {
  token_hash: string;
  user_id: Int8;
  app: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Int8;
  last_used_at: Int8;
  is_deleted: Generated<boolean>;
}

export interface OttsTable {
  id: GeneratedInt8;
  email: string;
  app: string;
  /** HMAC-SHA256 of e-mail, app and code under a key derived from the server secret. */
  ott_hash: string;
  created_at: Int8;
  expires_at: Int8;
  wrong_attempts: Generated<number>;
  /** The client address (as the per-address limits count it) that asked for the code. */
  ip: Generated<string>;
}

export interface SrpAuthTable {
  user_id: Int8;
  srp_user_id: string;
  salt: string;
  verifier: string;
  created_at: Int8;
  updated_at: Int8;
}

export interface SrpSessionsTable {
  id: string;
  srp_user_id: string;
  /** b64 of b, for sessions stored before b was derived from the session ID; null since. */
  server_key: string | null;
  srp_a: string;
  is_verified: Generated<boolean>;
  is_fake: Generated<boolean>;
  attempt_count: Generated<number>;
  created_at: Int8;
  /** The client's address ("" for sessions made before it was kept). */
  ip: Generated<string>;
  /** The server's B (b64); null for sessions made before it was kept, whose B is computed again. */
  srp_b: string | null;
}

export interface TempSrpSetupTable {
  id: string;
  session_id: string;
  user_id: Int8;
  srp_user_id: string;
  salt: string;
  verifier: string;
  created_at: Int8;
}

export interface TwoFactorTable {
  user_id: Int8;
  encrypted_secret: string;
  secret_nonce: string;
  secret_hash: string;
  encrypted_two_factor_secret: string;
  two_factor_secret_decryption_nonce: string;
  created_at: Int8;
}

export interface TempTwoFactorTable {
  id: GeneratedInt8;
  user_id: Int8;
  encrypted_secret: string;
  secret_nonce: string;
  created_at: Int8;
  expires_at: Int8;
}

export interface TwoFactorSessionsTable {
  session_hash: string;
  user_id: Int8;
  created_at: Int8;
  expires_at: Int8;
  wrong_attempts: Generated<number>;
  /** The client address (as the per-address limits count it) that asked for the code. */
  ip: Generated<string>;
}

export interface TwoFactorUsedCodesTable {
  user_id: Int8;
  code_hash: string;
  used_at: Int8;
}

export interface AuthenticatorKeyTable {
  user_id: Int8;
  encrypted_key: string;
  header: string;
  created_at: Int8;
  updated_at: Int8;
}

export interface AuthenticatorEntityTable {
  id: string;
  user_id: Int8;
  encrypted_data: string | null;
  header: string | null;
  is_deleted: Generated<boolean>;
  created_at: Int8;
  updated_at: Int8;
}

export interface UserEntityKeyTable {
  user_id: Int8;
  type: string;
  encrypted_key: string;
  header: string;
  created_at: Int8;
}

export interface UserEntityDataTable {
  user_id: Int8;
  id: string;
  type: string;
  encrypted_data: string | null;
  header: string | null;
  is_deleted: Generated<boolean>;
  created_at: Int8;
  updated_at: Int8;
}

export interface RateLimitsTable {
  key: string;
  window_start: Int8;
  count: number;
}

export interface OttSendsTable {
  id: GeneratedInt8;
  ip: string;
  sent_at: Int8;
  /** `account`: mailed to an address with an account; `new`: mailed to one without; `held`: nothing mailed. */
  kind: Generated<OttSendKind>;
}

export type OttSendKind = 'account' | 'new' | 'held';

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface PasskeysTable {
  id: string;
  user_id: Int8;
  friendly_name: string;
  created_at: Int8;
  deleted_at: Int8 | null;
}

/** `credential_id` and `public_key` (COSE) are base64url without padding; `transports` comma-joined. */
export interface PasskeyCredentialsTable {
  passkey_id: string;
  credential_id: string;
  public_key: string;
  sign_count: Int8;
  transports: string;
  created_at: Int8;
  /** The last sign-in with it (µs), null before the first. */
  last_used_at: ColumnType<string | number | null, number | null | undefined, number>;
}

/** One registration or login ceremony (`kind`), consumed by its finish. */
export interface WebauthnSessionsTable {
  id: string;
  user_id: Int8;
  kind: 'registration' | 'login';
  challenge: string;
  login_session_hash: string | null;
  expires_at: Int8;
}

export interface PasskeyLoginSessionsTable {
  session_hash: string;
  user_id: Int8;
  created_at: Int8;
  expires_at: Int8;
  verified_at: Int8 | null;
  /** The finish answer (a token sealed to the user's public key), for get-token. */
  token_data: string | null;
  token_fetch_count: Generated<number>;
}

export interface PasskeyRecoveryTable {
  user_id: Int8;
  secret_hash: string;
  user_secret_cipher: string;
  user_secret_nonce: string;
  created_at: Int8;
}

/** Store objects swept unless confirmed, or due to go (services/object-ledger.ts). */
export interface ObjectLedgerTable {
  object_key: string;
  /** The uploader of an unconfirmed object; null when unknown (a deleted file's objects). */
  user_id: Int8 | null;
  /** A multipart upload to abort with the object. */
  upload_id: string | null;
  reason: 'unconfirmed' | 'deleted';
  /** µs: when the sweep may take it (moved forward by each claim: the lease). */
  sweep_after: Int8;
  /** How many sweeps claimed it (0: never; a claimed object can no longer be confirmed). */
  claims: Generated<number>;
  created_at: Int8;
}

export type CollectionType = 'album' | 'folder' | 'favorites' | 'uncategorized';
export type ShareRole = 'VIEWER' | 'COLLABORATOR' | 'ADMIN';

/** Magic metadata columns hold the JSON text of {version, count, data, header}, or null when never set. */
export interface CollectionsTable {
  collection_id: GeneratedInt8;
  owner_id: Int8;
  encrypted_key: string;
  key_decryption_nonce: string;
  encrypted_name: string;
  name_decryption_nonce: string;
  type: CollectionType;
  /** The client app the collection belongs to (`photos`, `locker`). */
  app: string;
  /** JSON text of museum's attributes ({version, encryptedPath?, pathDecryptionNonce?}). */
  attributes: Generated<string>;
  magic_metadata: string | null;
  pub_magic_metadata: string | null;
  is_deleted: Generated<boolean>;
  created_at: Int8;
  updation_time: Int8;
}

export interface CollectionSharesTable {
  collection_id: Int8;
  from_user_id: Int8;
  to_user_id: Int8;
  role: ShareRole;
  /** The collection key sealed to the sharee's public key. */
  encrypted_key: string;
  magic_metadata: string | null;
  is_deleted: Generated<boolean>;
  shared_at: Int8;
  updation_time: Int8;
}

export interface FilesTable {
  file_id: GeneratedInt8;
  owner_id: Int8;
  file_object_key: string;
  file_decryption_header: string;
  file_size: Int8;
  thumbnail_object_key: string;
  thumbnail_decryption_header: string;
  thumbnail_size: Int8;
  encrypted_metadata: string;
  metadata_decryption_header: string;
  magic_metadata: string | null;
  pub_magic_metadata: string | null;
  /** Deleted for ever (its objects scheduled for removal); a trashed file is not deleted. */
  is_deleted: Generated<boolean>;
  created_at: Int8;
  updation_time: Int8;
}

/** A file in a collection: the file key boxed with the collection key. The collection diff's row. */
export interface CollectionFilesTable {
  collection_id: Int8;
  file_id: Int8;
  encrypted_key: string;
  key_decryption_nonce: string;
  c_owner_id: Int8;
  f_owner_id: Int8;
  is_deleted: Generated<boolean>;
  created_at: Int8;
  updation_time: Int8;
}

/** Each user's last photos time (services/photo-clock.ts). */
export interface PhotoClocksTable {
  user_id: Int8;
  last_time: Int8;
}

/** A trashed file (services/trash.ts): restored, deleted for ever, or waiting for `delete_by` (µs). */
export interface TrashTable {
  file_id: Int8;
  /** The collection whose key the trash diff hands out with the file. */
  collection_id: Int8;
  user_id: Int8;
  is_deleted: Generated<boolean>;
  is_restored: Generated<boolean>;
  delete_by: Int8;
  created_at: Int8;
  /** Stamped under the owner's photos clock: the trash diff's cursor. */
  updated_at: Int8;
}

/** A public link to a collection (services/public-links.ts); at most one per collection is not disabled. */
export interface PublicCollectionTokensTable {
  id: GeneratedInt8;
  collection_id: Int8;
  /** 10 upper-case letters and digits, in the link's `?t=`. */
  access_token: string;
  is_disabled: Generated<boolean>;
  /** µs; 0: never expires. */
  valid_till: GeneratedInt8;
  /** 0: no limit. */
  device_limit: Generated<number>;
  /** The password's Argon2id hash as the client derives it, with its salt and parameters; all null without one. */
  pw_hash: string | null;
  pw_nonce: string | null;
  mem_limit: Int8 | null;
  ops_limit: Int8 | null;
  enable_download: Generated<boolean>;
  enable_collect: Generated<boolean>;
  enable_comment: Generated<boolean>;
  enable_join: Generated<boolean>;
  created_at: Int8;
  updated_at: Int8;
}

/** The devices (client address and user agent) that opened a link, counted against its device limit. */
export interface PublicCollectionAccessHistoryTable {
  share_id: Int8;
  ip: string;
  user_agent: string;
  created_at: Int8;
}

/** A cast screen (services/cast.ts): registered with a code and a public key, then paired by a sender. */
export interface CastingTable {
  id: string;
  /** The pairing code, upper-case; one live row per code. */
  code: string;
  /** The screen's X25519 public key (b64). */
  public_key: string;
  /** The address the screen registered from (shown to the caster in GET /cast/device-info). */
  ip: string;
  /** The pairing: all null until a sender pairs, all set after. */
  collection_id: Int8 | null;
  cast_user: Int8 | null;
  /** SHA-256 of the session token that paired it (tokens.token_hash). */
  session_hash: string | null;
  /** SHA-256 of the cast token (b64url), as session tokens are kept. */
  token_hash: string | null;
  /** b64 of the sealed box, handed back to the screen unopened. */
  encrypted_payload: string | null;
  is_deleted: Generated<boolean>;
  created_at: Int8;
  paired_at: Int8 | null;
  last_used_at: Int8;
}
