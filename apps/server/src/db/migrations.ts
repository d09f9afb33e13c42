// The schema, as an ordered list of migrations in plain SQL that PostgreSQL 15 (Debian) and PGlite
// (PostgreSQL 18) both accept. Each statement runs on its own because PGlite's extended-protocol query()
// takes one statement at a time. Times are int8 microseconds, as museum stores them. Never edit a
// migration that has shipped; append a new one.

export const migrations: Record<string, readonly string[]> = {
  '0001_accounts': [
    `CREATE TABLE users (
      user_id BIGSERIAL PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      source TEXT,
      is_email_mfa_enabled BOOLEAN NOT NULL DEFAULT FALSE,
      is_two_factor_enabled BOOLEAN NOT NULL DEFAULT FALSE,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE key_attributes (
      user_id BIGINT PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
      kek_salt TEXT NOT NULL,
      kek_hash TEXT NOT NULL DEFAULT '',
      encrypted_key TEXT NOT NULL,
      key_decryption_nonce TEXT NOT NULL,
      public_key TEXT NOT NULL,
      encrypted_secret_key TEXT NOT NULL,
      secret_key_decryption_nonce TEXT NOT NULL,
      mem_limit BIGINT NOT NULL,
      ops_limit BIGINT NOT NULL,
      master_key_encrypted_with_recovery_key TEXT,
      master_key_decryption_nonce TEXT,
      recovery_key_encrypted_with_master_key TEXT,
      recovery_key_decryption_nonce TEXT,
      created_at BIGINT NOT NULL
    )`,
    // Only a SHA-256 of each token is stored (docs/decisions.md#api-server); the token itself never
    // reaches the database.
    `CREATE TABLE tokens (
      token_hash TEXT PRIMARY KEY,
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      app TEXT NOT NULL,
      ip TEXT,
      user_agent TEXT,
      created_at BIGINT NOT NULL,
      last_used_at BIGINT NOT NULL,
      is_deleted BOOLEAN NOT NULL DEFAULT FALSE
    )`,
    `CREATE INDEX tokens_user_app ON tokens (user_id, app)`,
    `CREATE TABLE otts (
      email TEXT NOT NULL,
      app TEXT NOT NULL,
      ott TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      wrong_attempts INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (email, app, ott)
    )`,
    `CREATE INDEX otts_expiry ON otts (expires_at)`,
    `CREATE TABLE srp_auth (
      user_id BIGINT PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
      srp_user_id UUID NOT NULL UNIQUE,
      salt TEXT NOT NULL,
      verifier TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE TABLE srp_sessions (
      id UUID PRIMARY KEY,
      srp_user_id UUID NOT NULL,
      server_key TEXT NOT NULL,
      srp_a TEXT NOT NULL,
      is_verified BOOLEAN NOT NULL DEFAULT FALSE,
      is_fake BOOLEAN NOT NULL DEFAULT FALSE,
      attempt_count INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX srp_sessions_user_time ON srp_sessions (srp_user_id, created_at)`,
    `CREATE TABLE temp_srp_setup (
      id UUID PRIMARY KEY,
      session_id UUID NOT NULL REFERENCES srp_sessions (id) ON DELETE CASCADE,
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      srp_user_id UUID NOT NULL,
      salt TEXT NOT NULL,
      verifier TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE two_factor (
      user_id BIGINT PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
      encrypted_secret TEXT NOT NULL,
      secret_nonce TEXT NOT NULL,
      secret_hash TEXT NOT NULL,
      encrypted_two_factor_secret TEXT NOT NULL,
      two_factor_secret_decryption_nonce TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE temp_two_factor (
      id BIGSERIAL PRIMARY KEY,
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      encrypted_secret TEXT NOT NULL,
      secret_nonce TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
    `CREATE INDEX temp_two_factor_user ON temp_two_factor (user_id, expires_at)`,
    `CREATE TABLE two_factor_sessions (
      session_hash TEXT PRIMARY KEY,
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      wrong_attempts INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE TABLE two_factor_used_codes (
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      code_hash TEXT NOT NULL,
      used_at BIGINT NOT NULL,
      PRIMARY KEY (user_id, code_hash)
    )`,
    `CREATE TABLE rate_limits (
      key TEXT NOT NULL,
      window_start BIGINT NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (key, window_start)
    )`,
    `CREATE TABLE ott_sends (
      id BIGSERIAL PRIMARY KEY,
      ip TEXT NOT NULL,
      sent_at BIGINT NOT NULL
    )`,
    `CREATE INDEX ott_sends_time ON ott_sends (sent_at)`,
    `CREATE TABLE server_secrets (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL
    )`,
  ],
  '0002_authenticator': [
    `CREATE TABLE authenticator_key (
      user_id BIGINT PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
      encrypted_key TEXT NOT NULL,
      header TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    // updated_at is unique per user, so the diff's strict "updated_at > sinceTime" can never skip a row
    // that shares its time with the last row of a page (docs/protocol.md#authenticator); the same index
    // serves the diff query.
    `CREATE TABLE authenticator_entity (
      id UUID PRIMARY KEY,
      user_id BIGINT NOT NULL REFERENCES authenticator_key (user_id) ON DELETE CASCADE,
      encrypted_data TEXT,
      header TEXT,
      is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      CONSTRAINT authenticator_entity_deleted_has_no_data CHECK (is_deleted = (encrypted_data IS NULL)),
      CONSTRAINT authenticator_entity_user_updated_at UNIQUE (user_id, updated_at)
    )`,
  ],
  // Passkeys (docs/protocol.md#passkeys). One credential per passkey; a deleted passkey keeps its row
  // (deleted_at) as museum does. Ceremony sessions are consumed by DELETE … RETURNING; login sessions
  // and recovery secrets are stored as hashes only.
  '0003_passkeys': [
    `CREATE TABLE passkeys (
      id UUID PRIMARY KEY,
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      friendly_name TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      deleted_at BIGINT
    )`,
    `CREATE INDEX passkeys_user ON passkeys (user_id) WHERE deleted_at IS NULL`,
    `CREATE TABLE passkey_credentials (
      passkey_id UUID PRIMARY KEY REFERENCES passkeys (id) ON DELETE CASCADE,
      credential_id TEXT NOT NULL UNIQUE,
      public_key TEXT NOT NULL,
      sign_count BIGINT NOT NULL,
      transports TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE webauthn_sessions (
      id UUID PRIMARY KEY,
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      challenge TEXT NOT NULL,
      login_session_hash TEXT,
      expires_at BIGINT NOT NULL
    )`,
    `CREATE INDEX webauthn_sessions_expiry ON webauthn_sessions (expires_at)`,
    `CREATE TABLE passkey_login_sessions (
      session_hash TEXT PRIMARY KEY,
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      verified_at BIGINT,
      token_data TEXT,
      token_fetch_count INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE TABLE passkey_recovery (
      user_id BIGINT PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
      secret_hash TEXT NOT NULL,
      user_secret_cipher TEXT NOT NULL,
      user_secret_nonce TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
  ],
  // When a passkey last signed someone in, for the accounts app's list (museum does not keep it).
  '0004_passkey_last_used': [`ALTER TABLE passkey_credentials ADD COLUMN last_used_at BIGINT`],
  // Hardening (docs/data-at-rest.md, docs/decisions.md#limits-that-stop-the-attacker): e-mail codes as
  // keyed hashes (the codes stored in plaintext until now are dropped: they live 10 minutes, and someone
  // mid-login asks for another), wrong guesses counted against every live code of an address across apps,
  // SRP sessions counted per client address, and no SRP private exponent stored.
  '0005_hardening': [
    `DROP TABLE otts`,
    `CREATE TABLE otts (
      id BIGSERIAL PRIMARY KEY,
      email TEXT NOT NULL,
      app TEXT NOT NULL,
      ott_hash TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      wrong_attempts INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX otts_email ON otts (email, expires_at)`,
    `CREATE INDEX otts_expiry ON otts (expires_at)`,
    // The client's address, so that unverified SRP sessions are counted per srpUserID and address.
    `ALTER TABLE srp_sessions ADD COLUMN ip TEXT NOT NULL DEFAULT ''`,
    `CREATE INDEX srp_sessions_user_ip_time ON srp_sessions (srp_user_id, ip, created_at)`,
    // The server's private exponent b is derived from the session ID under a server key, not stored.
    `ALTER TABLE srp_sessions ALTER COLUMN server_key DROP NOT NULL`,
  ],
  // The server's B, kept with its session so that verification does not compute it again (one 4096-bit
  // exponentiation less per login). NULL for sessions made before: those still compute it.
  '0006_srp_session_public_value': [`ALTER TABLE srp_sessions ADD COLUMN srp_b TEXT`],
  // E-mail codes counted by who asked and for whom (docs/decisions.md#security-second-pass-e-mail-codes-and-account-existence):
  // the client address that asked each code (live codes are capped per asker), and the kind of each
  // send, so that mass mail to addresses without an account is held back apart from codes to accounts.
  '0007_ott_senders': [
    `ALTER TABLE otts ADD COLUMN ip TEXT NOT NULL DEFAULT ''`,
    `ALTER TABLE ott_sends ADD COLUMN kind TEXT NOT NULL DEFAULT 'new'`,
    `CREATE INDEX ott_sends_kind_time ON ott_sends (kind, sent_at)`,
  ],
  // The photos' object ledger (services/object-ledger.ts): one row per store object that is swept unless
  // it is confirmed (an upload URL handed out, not yet followed by POST /files) or that must go (a file
  // deleted for ever). No foreign key to users: a row must outlive its account so that its object is
  // still swept (user IDs are never reused).
  '0008_object_ledger': [
    `CREATE TABLE object_ledger (
      object_key TEXT PRIMARY KEY,
      user_id BIGINT,
      upload_id TEXT,
      reason TEXT NOT NULL CHECK (reason IN ('unconfirmed', 'deleted')),
      sweep_after BIGINT NOT NULL,
      claims INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX object_ledger_sweep ON object_ledger (sweep_after)`,
  ],
  // Photos (docs/protocol.md#photos): albums, their sharing, files and which album holds which file. Ids
  // are BIGSERIAL numbers, as Ente's clients expect. Every change a client must see is stamped with
  // updation_time under the locks of services/photo-clock.ts, so each cursor (a user's collection list,
  // one collection's diff) sees changes in the order of their times. Magic metadata columns hold JSON text
  // {version, count, data, header}. A file deleted for ever keeps its row (is_deleted), as museum does, so
  // that diffs can tell clients; a later trash table refers to (file_id, collection_id) of collection_files.
  '0009_photos': [
    `CREATE TABLE collections (
      collection_id BIGSERIAL PRIMARY KEY,
      owner_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      encrypted_key TEXT NOT NULL,
      key_decryption_nonce TEXT NOT NULL,
      encrypted_name TEXT NOT NULL,
      name_decryption_nonce TEXT NOT NULL,
      type TEXT NOT NULL CHECK (type IN ('album', 'folder', 'favorites', 'uncategorized')),
      app TEXT NOT NULL,
      attributes TEXT NOT NULL DEFAULT '{"version":0}',
      magic_metadata TEXT,
      pub_magic_metadata TEXT,
      is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
      created_at BIGINT NOT NULL,
      updation_time BIGINT NOT NULL
    )`,
    `CREATE INDEX collections_owner_time ON collections (owner_id, updation_time)`,
    // At most one favorites and one uncategorized collection per owner and app, as in museum.
    `CREATE UNIQUE INDEX collections_one_favorites ON collections (owner_id, app) WHERE type = 'favorites'`,
    `CREATE UNIQUE INDEX collections_one_uncategorized ON collections (owner_id, app) WHERE type = 'uncategorized'`,
    // One row per (collection, sharee); unsharing keeps it (is_deleted) so the sharee's list reports it.
    `CREATE TABLE collection_shares (
      collection_id BIGINT NOT NULL REFERENCES collections (collection_id) ON DELETE CASCADE,
      from_user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      to_user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      role TEXT NOT NULL CHECK (role IN ('VIEWER', 'COLLABORATOR', 'ADMIN')),
      encrypted_key TEXT NOT NULL,
      magic_metadata TEXT,
      is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
      shared_at BIGINT NOT NULL,
      updation_time BIGINT NOT NULL,
      PRIMARY KEY (collection_id, to_user_id)
    )`,
    `CREATE INDEX collection_shares_to_user ON collection_shares (to_user_id, updation_time)`,
    `CREATE TABLE files (
      file_id BIGSERIAL PRIMARY KEY,
      owner_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      file_object_key TEXT NOT NULL UNIQUE,
      file_decryption_header TEXT NOT NULL,
      file_size BIGINT NOT NULL,
      thumbnail_object_key TEXT NOT NULL UNIQUE,
      thumbnail_decryption_header TEXT NOT NULL,
      thumbnail_size BIGINT NOT NULL,
      encrypted_metadata TEXT NOT NULL,
      metadata_decryption_header TEXT NOT NULL,
      magic_metadata TEXT,
      pub_magic_metadata TEXT,
      is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
      created_at BIGINT NOT NULL,
      updation_time BIGINT NOT NULL,
      CONSTRAINT files_two_objects CHECK (file_object_key <> thumbnail_object_key)
    )`,
    `CREATE INDEX files_owner ON files (owner_id) WHERE NOT is_deleted`,
    // The file's key under the collection's key. This row is what a collection diff returns.
    `CREATE TABLE collection_files (
      collection_id BIGINT NOT NULL REFERENCES collections (collection_id) ON DELETE CASCADE,
      file_id BIGINT NOT NULL REFERENCES files (file_id) ON DELETE CASCADE,
      encrypted_key TEXT NOT NULL,
      key_decryption_nonce TEXT NOT NULL,
      c_owner_id BIGINT NOT NULL,
      f_owner_id BIGINT NOT NULL,
      is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
      created_at BIGINT NOT NULL,
      updation_time BIGINT NOT NULL,
      PRIMARY KEY (collection_id, file_id)
    )`,
    `CREATE INDEX collection_files_diff ON collection_files (collection_id, updation_time)`,
    `CREATE INDEX collection_files_file ON collection_files (file_id)`,
    // Each user's last photos time: every write locks the clocks of the users who will see it.
    `CREATE TABLE photo_clocks (
      user_id BIGINT PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
      last_time BIGINT NOT NULL
    )`,
  ],
  // The trash and public album links (docs/protocol.md#trash, #public-links). A trash row names the file and
  // the collection whose key the trash diff hands out with it; its updated_at is stamped under the owner's
  // photos clock like every other change, so the trash diff's cursor misses nothing. Each collection has
  // at most one live link; the access history counts the devices (address and user agent) that opened it.
  '0010_photos_trash_links': [
    `CREATE TABLE trash (
      file_id BIGINT PRIMARY KEY REFERENCES files (file_id) ON DELETE CASCADE,
      collection_id BIGINT NOT NULL,
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
      is_restored BOOLEAN NOT NULL DEFAULT FALSE,
      delete_by BIGINT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      FOREIGN KEY (collection_id, file_id) REFERENCES collection_files (collection_id, file_id) ON DELETE CASCADE,
      CONSTRAINT trash_one_state CHECK (NOT (is_deleted AND is_restored))
    )`,
    `CREATE INDEX trash_user_time ON trash (user_id, updated_at)`,
    `CREATE INDEX trash_due ON trash (delete_by) WHERE NOT is_deleted AND NOT is_restored`,
    `CREATE TABLE public_collection_tokens (
      id BIGSERIAL PRIMARY KEY,
      collection_id BIGINT NOT NULL REFERENCES collections (collection_id) ON DELETE CASCADE,
      access_token TEXT NOT NULL UNIQUE,
      is_disabled BOOLEAN NOT NULL DEFAULT FALSE,
      valid_till BIGINT NOT NULL DEFAULT 0,
      device_limit INTEGER NOT NULL DEFAULT 0,
      pw_hash TEXT,
      pw_nonce TEXT,
      mem_limit BIGINT,
      ops_limit BIGINT,
      enable_download BOOLEAN NOT NULL DEFAULT TRUE,
      enable_collect BOOLEAN NOT NULL DEFAULT FALSE,
      enable_comment BOOLEAN NOT NULL DEFAULT FALSE,
      enable_join BOOLEAN NOT NULL DEFAULT TRUE,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      CONSTRAINT public_link_password_whole CHECK ((pw_hash IS NULL) = (pw_nonce IS NULL))
    )`,
    `CREATE UNIQUE INDEX public_collection_tokens_one_live ON public_collection_tokens (collection_id) WHERE NOT is_disabled`,
    `CREATE TABLE public_collection_access_history (
      share_id BIGINT NOT NULL REFERENCES public_collection_tokens (id) ON DELETE CASCADE,
      ip TEXT NOT NULL,
      user_agent TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (share_id, ip, user_agent)
    )`,
  ],
  // Cast (docs/protocol.md#cast): a screen's row from its registration (code, public key, address) until it is
  // revoked; a sender's pairing fills in the album, the caster, the sealed payload and the SHA-256 of the cast
  // token (never the token), and the hash of the session that paired it, whose end ends the cast. A live code
  // names one row at a time.
  '0011_casting': [
    `CREATE TABLE casting (
      id UUID PRIMARY KEY,
      code TEXT NOT NULL,
      public_key TEXT NOT NULL,
      ip TEXT NOT NULL,
      collection_id BIGINT REFERENCES collections (collection_id) ON DELETE CASCADE,
      cast_user BIGINT REFERENCES users (user_id) ON DELETE CASCADE,
      session_hash TEXT,
      token_hash TEXT UNIQUE,
      encrypted_payload TEXT,
      is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
      created_at BIGINT NOT NULL,
      paired_at BIGINT,
      last_used_at BIGINT NOT NULL,
      CONSTRAINT casting_pairing_whole CHECK (
        (collection_id IS NULL) = (cast_user IS NULL) AND (collection_id IS NULL) = (session_hash IS NULL)
        AND (collection_id IS NULL) = (token_hash IS NULL) AND (collection_id IS NULL) = (encrypted_payload IS NULL)
        AND (collection_id IS NULL) = (paired_at IS NULL)
      )
    )`,
    `CREATE UNIQUE INDEX casting_live_code ON casting (code) WHERE NOT is_deleted`,
    `CREATE INDEX casting_caster ON casting (cast_user) WHERE NOT is_deleted`,
    `CREATE INDEX casting_collection ON casting (collection_id) WHERE NOT is_deleted`,
    `CREATE INDEX casting_last_used ON casting (last_used_at)`,
  ],
  // User entities (docs/protocol.md#user-entities), museum's entity_key and entity_data: one wrapped key per
  // (user, type), and the encrypted entities of that type, which go with their key and with their user. An id
  // is unique per user (museum: across users), so no account can take an id another will ask for. As for the
  // authenticator, updated_at is unique per user, so the diff's strict "updated_at > sinceTime" never skips
  // a row that shares its time with the last row of a page.
  '0012_user_entities': [
    `CREATE TABLE user_entity_key (
      user_id BIGINT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      encrypted_key TEXT NOT NULL,
      header TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (user_id, type)
    )`,
    `CREATE TABLE user_entity_data (
      user_id BIGINT NOT NULL,
      id TEXT NOT NULL,
      type TEXT NOT NULL,
      encrypted_data TEXT,
      header TEXT,
      is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (user_id, id),
      FOREIGN KEY (user_id, type) REFERENCES user_entity_key (user_id, type) ON DELETE CASCADE,
      CONSTRAINT user_entity_deleted_has_no_data CHECK (
        is_deleted = (encrypted_data IS NULL) AND is_deleted = (header IS NULL)
      ),
      CONSTRAINT user_entity_user_updated_at UNIQUE (user_id, updated_at)
    )`,
    `CREATE INDEX user_entity_data_diff ON user_entity_data (user_id, type, updated_at)`,
  ],
};
