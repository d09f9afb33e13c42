// An independent reader of what the photos app uploads: libsodium alone, from the account's password, with
// none of our crypto code (docs/protocol.md#photos). A browser test uploads through the app, then this opens
// the server's ciphertext — the password's KEK, the master key, the album key, the file key, the metadata
// and the file's 4 MiB secretstream chunks — so that a mistake our app and our crypto package share (both
// written by us) cannot pass unnoticed.
import sodiumModule from 'libsodium-wrappers-sumo';

/** What the server keeps of the account's keys (GET /users/attributes, or the login answer). */
export interface OracleKeyAttributes {
  kekSalt: string;
  memLimit: number;
  opsLimit: number;
  encryptedKey: string;
  keyDecryptionNonce: string;
  publicKey: string;
  encryptedSecretKey: string;
  secretKeyDecryptionNonce: string;
}

/** A secretstream chunk of a file: 4 MiB of plaintext and libsodium's 17 bytes of header and tag. */
const CHUNK_BYTES = 4 * 1024 * 1024 + 17;

async function sodium() {
  await sodiumModule.ready;
  return sodiumModule;
}

const fromB64 = (sodiumLib: typeof sodiumModule, b64: string) =>
  sodiumLib.from_base64(b64, sodiumLib.base64_variants.ORIGINAL);

/** The master key and the key pair, opened from the password as a new browser would. */
export async function openAccountKeys(password: string, attributes: OracleKeyAttributes) {
  const s = await sodium();
  const kek = s.crypto_pwhash(
    32,
    s.from_string(password),
    fromB64(s, attributes.kekSalt),
    attributes.opsLimit,
    attributes.memLimit,
    s.crypto_pwhash_ALG_ARGON2ID13,
  );
  const masterKey = s.crypto_secretbox_open_easy(
    fromB64(s, attributes.encryptedKey),
    fromB64(s, attributes.keyDecryptionNonce),
    kek,
  );
  const secretKey = s.crypto_secretbox_open_easy(
    fromB64(s, attributes.encryptedSecretKey),
    fromB64(s, attributes.secretKeyDecryptionNonce),
    masterKey,
  );
  return { masterKey, publicKey: fromB64(s, attributes.publicKey), secretKey };
}

/** An album's key: boxed with the master key for its owner, sealed to the public key for a sharee. */
export async function openAlbumKey(
  collection: { encryptedKey: string; keyDecryptionNonce?: string },
  keys: { masterKey: Uint8Array; publicKey: Uint8Array; secretKey: Uint8Array },
): Promise<Uint8Array> {
  const s = await sodium();
  if (collection.keyDecryptionNonce) {
    return s.crypto_secretbox_open_easy(
      fromB64(s, collection.encryptedKey),
      fromB64(s, collection.keyDecryptionNonce),
      keys.masterKey,
    );
  }
  return s.crypto_box_seal_open(fromB64(s, collection.encryptedKey), keys.publicKey, keys.secretKey);
}

/** An album's name, boxed with its key. */
export async function openAlbumName(
  collection: { encryptedName: string; nameDecryptionNonce: string },
  albumKey: Uint8Array,
) {
  const s = await sodium();
  const name = s.crypto_secretbox_open_easy(
    fromB64(s, collection.encryptedName),
    fromB64(s, collection.nameDecryptionNonce),
    albumKey,
  );
  return s.to_string(name);
}

/** A file's key, boxed with the key of the album it was read from. */
export async function openFileKey(entry: { encryptedKey: string; keyDecryptionNonce: string }, albumKey: Uint8Array) {
  const s = await sodium();
  return s.crypto_secretbox_open_easy(fromB64(s, entry.encryptedKey), fromB64(s, entry.keyDecryptionNonce), albumKey);
}

/**
 * Opens a secretstream of 4 MiB chunks (a file; a thumbnail or metadata is one chunk): every chunk must
 * authenticate, the last and only the last must be tagged FINAL, nothing may follow it.
 */
export async function openStream(ciphertext: Uint8Array, header: string, key: Uint8Array): Promise<Uint8Array> {
  const s = await sodium();
  const state = s.crypto_secretstream_xchacha20poly1305_init_pull(fromB64(s, header), key);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < ciphertext.length || at === 0; at += CHUNK_BYTES) {
    const chunk = ciphertext.subarray(at, at + CHUNK_BYTES);
    const pulled = s.crypto_secretstream_xchacha20poly1305_pull(state, chunk, null);
    if (!pulled) throw new Error(`chunk at ${String(at)} does not authenticate`);
    const last = at + CHUNK_BYTES >= ciphertext.length;
    const final = pulled.tag === s.crypto_secretstream_xchacha20poly1305_TAG_FINAL;
    if (final !== last) throw new Error(`chunk at ${String(at)}: FINAL ${String(final)}, last ${String(last)}`);
    parts.push(pulled.message);
  }
  const plaintext = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    plaintext.set(part, offset);
    offset += part.length;
  }
  return plaintext;
}

/** A file's metadata JSON (one secretstream message under the file key). */
export async function openMetadata(
  metadata: { encryptedData: string; decryptionHeader: string },
  fileKey: Uint8Array,
): Promise<Record<string, unknown>> {
  const s = await sodium();
  const bytes = await openStream(fromB64(s, metadata.encryptedData), metadata.decryptionHeader, fileKey);
  return JSON.parse(s.to_string(bytes)) as Record<string, unknown>;
}

/** Base64 of BLAKE2b-512, the metadata's `hash` of a file's plaintext. */
export async function blake2bB64(bytes: Uint8Array): Promise<string> {
  const s = await sodium();
  return s.to_base64(s.crypto_generichash(64, bytes, null), s.base64_variants.ORIGINAL);
}

/** An album key sealed to another account's public key, as a sharing client sends it (`POST /collections/share`). */
export async function sealAlbumKey(albumKey: Uint8Array, publicKey: string): Promise<string> {
  const s = await sodium();
  return s.to_base64(s.crypto_box_seal(albumKey, fromB64(s, publicKey)), s.base64_variants.ORIGINAL);
}
