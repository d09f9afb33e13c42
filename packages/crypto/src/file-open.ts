// A photos file's key and metadata opened under its collection's key (docs/protocol.md#photos), with the Box and
// Blob openers the caller has: libsodium's in the crypto worker (photos-library.ts), open.ts's where libsodium must
// not load (a public album's visit). A file's key is a Box under its collection's key; its metadata is a Blob of
// JSON under the file key, and so are its magic metadata (`{data, header}`).
import type { BlobB64 } from './blob.ts';
import type { BoxB64 } from './box.ts';
import { toB64, utf8String } from './encoding.ts';

/** How Boxes and Blobs are opened: each throws when it does not open. */
export type Openers = {
  box(box: BoxB64, key: Uint8Array): Promise<Uint8Array> | Uint8Array;
  blob(blob: BlobB64, key: Uint8Array): Promise<Uint8Array> | Uint8Array;
};

/** Encrypted magic metadata as the server keeps it: a Blob of JSON (`data` its ciphertext). */
export type LockedMagicMetadata = { data: string; header: string };

/** A file's encrypted fields, as a collection diff answers them. */
export type LockedFile = {
  encryptedKey: string;
  keyDecryptionNonce: string;
  metadata: { encryptedData?: string | undefined; decryptionHeader: string };
  magicMetadata?: LockedMagicMetadata | undefined;
  pubMagicMetadata?: LockedMagicMetadata | undefined;
};

/** A file opened: its key (b64), its metadata and magic metadata as parsed JSON (`null`: did not open). */
export type OpenedFile = {
  key: string;
  metadata: unknown;
  magicMetadata?: unknown;
  pubMagicMetadata?: unknown;
};

/** JSON of a Blob's UTF-8 text; throws when it does not open or is not JSON. */
async function openJSON(
  open: Openers,
  blob: { encryptedData: string; header: string },
  key: Uint8Array,
): Promise<unknown> {
  return JSON.parse(utf8String(await open.blob(blob, key))) as unknown;
}

/** Magic metadata's JSON, `null` when it does not open, undefined when there is none. */
export async function openMagic(
  open: Openers,
  magic: LockedMagicMetadata | undefined,
  key: Uint8Array,
): Promise<unknown> {
  if (!magic) return undefined;
  try {
    return await openJSON(open, { encryptedData: magic.data, header: magic.header }, key);
  } catch {
    return null;
  }
}

/** Sets the optional fields that have a value (exactOptionalPropertyTypes). */
export function withMagic<T extends object>(target: T, fields: Record<string, unknown>): T {
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) Object.assign(target, { [name]: value });
  return target;
}

/** The length of every collection and file key (secretbox and secretstream keys). */
const KEY_BYTES = 32;

/** A key that opened is only a key at the length of one: a sealed box or Box can carry bytes of any length. */
export function checkedKey(key: Uint8Array): Uint8Array {
  if (key.length !== KEY_BYTES) throw new Error(`a key of ${String(key.length)} bytes`);
  return key;
}

/** The file's key and metadata; throws when its key or metadata does not open. */
export async function openFile(open: Openers, file: LockedFile, collectionKey: Uint8Array): Promise<OpenedFile> {
  const key = checkedKey(
    await open.box({ encryptedData: file.encryptedKey, nonce: file.keyDecryptionNonce }, collectionKey),
  );
  const metadata = await openJSON(
    open,
    { encryptedData: file.metadata.encryptedData ?? '', header: file.metadata.decryptionHeader },
    key,
  );
  return withMagic(
    { key: toB64(key), metadata },
    {
      magicMetadata: await openMagic(open, file.magicMetadata, key),
      pubMagicMetadata: await openMagic(open, file.pubMagicMetadata, key),
    },
  );
}
