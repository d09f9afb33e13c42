// The crypto API of the web clients: every operation a sign-in or account page needs, with keys as b64
// strings so that it can run behind a worker boundary (client.ts, worker.ts). `cryptoAPI` is the direct
// implementation (Node, tests, and the worker itself). Steps follow docs/protocol.md: #generating-keys-at-sign-up,
// #password-kdf, #interactive-key-attributes, #recovery-key, #auth-tokens, #srp, #two-factor, #session-storage.
import { eachOrNull } from './batch.ts';
import { decryptBlobBytes, encryptBlobB64, type BlobB64 } from './blob.ts';
import { decryptBoxB64, encryptBoxB64, type BoxB64 } from './box.ts';
import { createCastScreenCrypto, type CastScreenCrypto } from './cast-screen.ts';
import { bytesOf, toB64Url, utf8Bytes, utf8String } from './encoding.ts';
import { DecryptionError, SrpSessionError } from './errors.ts';
import {
  argon2idKey,
  decryptEnteExport,
  encryptEnteExport,
  type EnteExportEnvelope,
  type ExportKdfCost,
} from './export-file.ts';
import {
  checkKdfParams,
  deriveInteractiveKeyB64,
  deriveKeyObservedB64,
  deriveLoginSubKeyB64,
  deriveSensitiveKeyB64,
  type Argon2RunObserver,
  type DerivedKeyB64,
} from './kdf.ts';
import { generateKeyAttributes as generateKeys, type KeyAttributesB64 } from './key-attributes.ts';
import { generateKeyB64 } from './keys.ts';
import { createPhotosLibraryCrypto, type PhotosLibraryCrypto } from './photos-library.ts';
import { recoveryKeyFromInput, recoveryKeyToWords } from './recovery-key.ts';
import { openSealedBoxBytes } from './sealed-box.ts';
import { sodiumReady } from './sodium.ts';
import { createSrpClient, generateSrpSetupAttributes, type SrpClientSession, type SrpSetupAttributes } from './srp.ts';

export type { Argon2Run } from './kdf.ts';
export type { BlobB64 } from './blob.ts';
export type { BoxB64 } from './box.ts';
export type { CastKeyPair } from './cast-screen.ts';
export type { EnteExportEnvelope, ExportKdfCost } from './export-file.ts';
export type { KeyAttributesB64 } from './key-attributes.ts';
export type {
  LibraryUserKeys,
  LinkPasswordHash,
  LockedCollection,
  LockedFile,
  LockedMagicMetadata,
  NewCollectionKeys,
  OpenedCollection,
  OpenedFile,
} from './photos-library.ts';
export type { SrpSetupAttributes } from './srp.ts';

/**
 * Key attributes as they come from the server or local storage: the recovery fields and kekHash may be
 * absent, `""` or null (docs/protocol.md#key-attributes). Structurally compatible with the protocol types.
 */
export type KeyAttributesLike = {
  kekSalt: string;
  opsLimit: number;
  memLimit: number;
  encryptedKey: string;
  keyDecryptionNonce: string;
  publicKey: string;
  encryptedSecretKey: string;
  secretKeyDecryptionNonce: string;
  masterKeyEncryptedWithRecoveryKey?: string | null;
  masterKeyDecryptionNonce?: string | null;
  recoveryKeyEncryptedWithMasterKey?: string | null;
  recoveryKeyDecryptionNonce?: string | null;
  kekHash?: string | null;
};

/** The Argon2id parameters stored with key attributes (or in `srpAttributes`). */
export type StoredKdfParams = {
  kekSalt: string;
  opsLimit: number;
  memLimit: number;
};

/** What sign-up needs next (docs/protocol.md#sign-up): all b64. */
export type GeneratedKeyAttributes = {
  keyAttributes: KeyAttributesB64;
  masterKey: string;
  recoveryKey: string;
  /** The sensitive KEK (the SRP login subkey comes from it). */
  kek: string;
  srpSetupAttributes: SrpSetupAttributes;
};

/** The four fields of `PUT /users/recovery-key`, and the new recovery key (b64). */
export type RecoveryKeyAttributes = {
  recoveryKey: string;
  masterKeyEncryptedWithRecoveryKey: string;
  masterKeyDecryptionNonce: string;
  recoveryKeyEncryptedWithMasterKey: string;
  recoveryKeyDecryptionNonce: string;
};

/** A key in a Box under a fresh random key stored next to it (session storage `encryptionKey`, `keyEncryptionKey`). */
export type KeyStash = {
  encryptedData: string;
  key: string;
  nonce: string;
};

/** The SRP password: the sensitive KEK, or the login subkey already derived from it. */
export type SrpSecret = { kek: string; loginSubKey?: undefined } | { loginSubKey: string; kek?: undefined };

/**
 * The SRP identity an exchange starts from: `srpUserID` and `srpSalt` (the server's `srpAttributes`, or
 * saved `srpSetupAttributes`), with its secret now or, when the KEK is still being derived, at the proof.
 */
export type SrpClientStartInput = { srpUserID: string; srpSalt: string } & (
  SrpSecret | { kek?: undefined; loginSubKey?: undefined }
);

/** How long an SRP handle lives without being verified. */
export const SRP_HANDLE_TTL_MS = 5 * 60 * 1000;

/**
 * Every operation of the web clients' cryptography. All keys and ciphertexts are b64 strings. The photos
 * library's batches are in photos-library.ts.
 */
export interface CryptoAPI extends PhotosLibraryCrypto, CastScreenCrypto {
  /** Sign-up: key attributes with the sensitive KEK (with its memory fallback) and the SRP setup attributes. */
  generateKeyAttributes(password: string): Promise<GeneratedKeyAttributes>;
  /** The KEK from stored parameters, no fallback; `KdfParamsError` before running when they are out of bounds. */
  deriveKEK(password: string, params: StoredKdfParams): Promise<string>;
  /** A fresh sensitive KEK (password change). */
  deriveSensitiveKEK(password: string): Promise<DerivedKeyB64>;
  /** Local attributes with a fresh interactive KEK (ops 2, 64 MiB) wrapping the masterKey. */
  makeInteractiveKeyAttributes<T extends KeyAttributesLike>(
    password: string,
    masterKey: string,
    keyAttributes: T,
  ): Promise<T>;
  /** Opens `encryptedKey` with the KEK; `DecryptionError` on a wrong KEK. */
  decryptMasterKey(
    kek: string,
    keyAttributes: Pick<KeyAttributesLike, 'encryptedKey' | 'keyDecryptionNonce'>,
  ): Promise<string>;
  /** Opens a sealed `encryptedToken`; the token as padded b64url. */
  openToken(encryptedToken: string, keyAttributes: KeyAttributesLike, masterKey: string): Promise<string>;
  /** The masterKey from the recovery key; `DecryptionError` on a wrong key or attributes without recovery fields. */
  masterKeyFromRecoveryKey(recoveryKey: string, keyAttributes: KeyAttributesLike): Promise<string>;
  /** The recovery key from the masterKey; `DecryptionError` when the attributes have no recovery fields. */
  recoveryKeyFromMasterKey(masterKey: string, keyAttributes: KeyAttributesLike): Promise<string>;
  /** A new recovery key and the four fields that register it (accounts created without one). */
  generateRecoveryKeyAttributes(masterKey: string): Promise<RecoveryKeyAttributes>;
  /** The 24 BIP-39 words of a recovery key, single-spaced. */
  recoveryKeyToWords(recoveryKey: string): Promise<string>;
  /** The recovery key (b64) from typed words or hex; `RecoveryKeyError` with a `reason` otherwise. */
  recoveryKeyFromInput(text: string): Promise<string>;
  /** New SRP setup attributes (fresh srpUserID and salt) for a KEK. */
  generateSrpSetupAttributes(kek: string): Promise<SrpSetupAttributes>;
  /**
   * Starts an SRP exchange; the state stays here under `handle` until `srpClientVerify` or a timeout.
   * `secretA` (b64, 32 bytes) fixes the client's private value, for test vectors only.
   */
  srpClientStart(input: SrpClientStartInput, secretA?: string): Promise<{ handle: string; srpA: string }>;
  /**
   * M1 for the server's B, with the secret if the start had none; `SrpError` for an invalid B or no
   * secret, `SrpSessionError` for an unknown handle.
   */
  srpClientProof(handle: string, srpB: string, secret?: SrpSecret): Promise<string>;
  /** Whether the server's M2 is right; frees the handle either way. */
  srpClientVerify(handle: string, srpM2: string): Promise<boolean>;
  /** Box(base64-decoded secretCode) under the recovery key (docs/protocol.md#two-factor). */
  encryptTwoFactorSecret(secretCode: string, recoveryKey: string): Promise<BoxB64>;
  /** The base32 secret back: Box-open, then base64-encode. */
  decryptTwoFactorSecret(encryptedData: string, nonce: string, recoveryKey: string): Promise<string>;
  encryptBox(data: string, key: string): Promise<BoxB64>;
  decryptBox(encryptedData: string, nonce: string, key: string): Promise<string>;
  /** A Blob (one TAG_FINAL secretstream message) of the UTF-8 bytes of `text` (authenticator entities, share links). */
  encryptBlobText(text: string, key: string): Promise<BlobB64>;
  /** The UTF-8 text of a Blob; `DecryptionError` when it does not open or is not UTF-8. */
  decryptBlobText(blob: BlobB64, key: string): Promise<string>;
  /**
   * The UTF-8 texts of many Blobs under one key, in one call (one worker round trip for a whole vault):
   * `null` for each Blob that does not open, is not UTF-8 or is malformed; never throws for one of them.
   */
  decryptBlobTexts(blobs: readonly BlobB64[], key: string): Promise<(string | null)[]>;
  /** A Blob of each text under one key, in one call (a batch of imported codes). */
  encryptBlobTexts(texts: readonly string[], key: string): Promise<BlobB64[]>;
  /**
   * Ente's encrypted export of `text` under `password`: the sensitive Argon2id strategy, or `cost` when
   * given (tests). See export-file.ts.
   */
  encryptEnteExport(password: string, text: string, cost?: ExportKdfCost): Promise<EnteExportEnvelope>;
  /** The text of an Ente encrypted export; `DecryptionError` for a wrong password, `KdfParamsError` for bad parameters. */
  decryptEnteExport(
    password: string,
    envelope: Pick<EnteExportEnvelope, 'kdfParams' | 'encryptedData' | 'encryptionNonce'>,
  ): Promise<string>;
  /** A 32-byte Argon2id key (b64) for another app's export (Proton), within the KDF bounds. */
  argon2idKey(password: string, salt: string, opsLimit: number, memLimit: number): Promise<string>;
  /** 32 random bytes. */
  generateKey(): Promise<string>;
  stashKey(key: string): Promise<KeyStash>;
  unstashKey(stash: KeyStash): Promise<string>;
  /** Loads libsodium now, so that a password typed meanwhile starts its derivation at once. */
  prepare(): Promise<void>;
}

interface SrpHandle {
  session: SrpClientSession;
  timer: ReturnType<typeof setTimeout>;
}

/** Open SRP exchanges of this realm (the worker, or the Node process), by handle. */
const srpHandles = new Map<string, SrpHandle>();
let srpHandleCounter = 0;

function takeSrpHandle(handle: string): SrpHandle {
  const entry = srpHandles.get(handle);
  if (!entry) throw new SrpSessionError('unknown or expired SRP handle');
  return entry;
}

function freeSrpHandle(handle: string) {
  const entry = srpHandles.get(handle);
  if (entry) clearTimeout(entry.timer);
  srpHandles.delete(handle);
}

/** How many SRP exchanges are open (tests). */
export function openSrpHandleCount(): number {
  return srpHandles.size;
}

/** The result of a synchronous step as a promise (a throw becomes a rejection). */
function settle<T>(step: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(step());
  });
}

/** The login subkey of an SRP secret (derived from the KEK when that is what was given). */
async function loginSubKeyOf(secret: { kek?: string; loginSubKey?: string }): Promise<string | undefined> {
  return secret.kek === undefined ? secret.loginSubKey : deriveLoginSubKeyB64(secret.kek);
}

/** The UTF-8 text of a decrypted Blob; bytes that are not UTF-8 count as a failed decryption. */
function blobText(bytes: Uint8Array): string {
  try {
    return utf8String(bytes);
  } catch {
    throw new DecryptionError('blob is not UTF-8 text');
  }
}

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * The implementation, reporting every Argon2id run to `onRun` (the worker endpoint counts and times
 * them per call; see endpoint.ts).
 */
export function createCryptoAPI(onRun?: Argon2RunObserver): CryptoAPI {
  const sensitive = (password: string) => deriveSensitiveKeyB64(password, onRun);
  return {
    ...createPhotosLibraryCrypto(onRun),
    ...createCastScreenCrypto(),
    async generateKeyAttributes(password) {
      const generated = await generateKeys(password, sensitive);
      const srpSetupAttributes = await generateSrpSetupAttributes(generated.kek);
      return {
        keyAttributes: generated.keyAttributes,
        masterKey: generated.masterKey,
        recoveryKey: generated.recoveryKey,
        kek: generated.kek,
        srpSetupAttributes,
      };
    },

    async deriveKEK(password, { kekSalt, opsLimit, memLimit }) {
      checkKdfParams({ salt: kekSalt, opsLimit, memLimit });
      return deriveKeyObservedB64(password, kekSalt, opsLimit, memLimit, onRun);
    },

    deriveSensitiveKEK: sensitive,

    async makeInteractiveKeyAttributes(password, masterKey, keyAttributes) {
      const kek = await deriveInteractiveKeyB64(password, onRun);
      const box = await encryptBoxB64(masterKey, kek.key);
      return {
        ...keyAttributes,
        kekSalt: kek.salt,
        opsLimit: kek.opsLimit,
        memLimit: kek.memLimit,
        encryptedKey: box.encryptedData,
        keyDecryptionNonce: box.nonce,
      };
    },

    async decryptMasterKey(kek, keyAttributes) {
      return decryptBoxB64({ encryptedData: keyAttributes.encryptedKey, nonce: keyAttributes.keyDecryptionNonce }, kek);
    },

    async openToken(encryptedToken, keyAttributes, masterKey) {
      const secretKey = await decryptBoxB64(
        { encryptedData: keyAttributes.encryptedSecretKey, nonce: keyAttributes.secretKeyDecryptionNonce },
        masterKey,
      );
      return toB64Url(await openSealedBoxBytes(encryptedToken, keyAttributes.publicKey, secretKey));
    },

    async masterKeyFromRecoveryKey(recoveryKey, keyAttributes) {
      const { masterKeyEncryptedWithRecoveryKey: encryptedData, masterKeyDecryptionNonce: nonce } = keyAttributes;
      if (!present(encryptedData) || !present(nonce)) {
        throw new DecryptionError('the key attributes have no recovery key');
      }
      return decryptBoxB64({ encryptedData, nonce }, recoveryKey);
    },

    async recoveryKeyFromMasterKey(masterKey, keyAttributes) {
      const { recoveryKeyEncryptedWithMasterKey: encryptedData, recoveryKeyDecryptionNonce: nonce } = keyAttributes;
      if (!present(encryptedData) || !present(nonce)) {
        throw new DecryptionError('the key attributes have no recovery key');
      }
      return decryptBoxB64({ encryptedData, nonce }, masterKey);
    },

    async generateRecoveryKeyAttributes(masterKey) {
      const recoveryKey = await generateKeyB64();
      const masterUnderRecovery = await encryptBoxB64(masterKey, recoveryKey);
      const recoveryUnderMaster = await encryptBoxB64(recoveryKey, masterKey);
      return {
        recoveryKey,
        masterKeyEncryptedWithRecoveryKey: masterUnderRecovery.encryptedData,
        masterKeyDecryptionNonce: masterUnderRecovery.nonce,
        recoveryKeyEncryptedWithMasterKey: recoveryUnderMaster.encryptedData,
        recoveryKeyDecryptionNonce: recoveryUnderMaster.nonce,
      };
    },

    recoveryKeyToWords: (recoveryKey) => settle(() => recoveryKeyToWords(recoveryKey)),
    recoveryKeyFromInput: (text) => settle(() => recoveryKeyFromInput(text)),

    generateSrpSetupAttributes: (kek) => generateSrpSetupAttributes(kek),

    async srpClientStart(input, secretA) {
      const { srpUserID, srpSalt } = input;
      const loginSubKey = await loginSubKeyOf(input);
      const session = await createSrpClient(
        { srpUserID, srpSalt, loginSubKey },
        secretA === undefined ? undefined : bytesOf(secretA),
      );
      srpHandleCounter += 1;
      const handle = `srp-${String(srpHandleCounter)}`;
      const timer = setTimeout(() => srpHandles.delete(handle), SRP_HANDLE_TTL_MS);
      // Node: an open exchange must not keep the process alive.
      (timer as { unref?: () => void }).unref?.();
      srpHandles.set(handle, { session, timer });
      return { handle, srpA: session.srpA };
    },

    async srpClientProof(handle, srpB, secret) {
      const { session } = takeSrpHandle(handle);
      try {
        return session.computeM1B64(srpB, secret && (await loginSubKeyOf(secret)));
      } catch (error) {
        freeSrpHandle(handle);
        throw error;
      }
    },

    srpClientVerify: (handle, srpM2) =>
      settle(() => {
        const { session } = takeSrpHandle(handle);
        freeSrpHandle(handle);
        return session.verifyM2(srpM2);
      }),

    async encryptTwoFactorSecret(secretCode, recoveryKey) {
      return encryptBoxB64(bytesOf(secretCode), recoveryKey);
    },

    async decryptTwoFactorSecret(encryptedData, nonce, recoveryKey) {
      return decryptBoxB64({ encryptedData, nonce }, recoveryKey);
    },

    encryptBox: (data, key) => encryptBoxB64(data, key),
    decryptBox: (encryptedData, nonce, key) => decryptBoxB64({ encryptedData, nonce }, key),

    encryptBlobText: (text, key) => encryptBlobB64(utf8Bytes(text), key),

    async decryptBlobText(blob, key) {
      return blobText(await decryptBlobBytes(blob, key));
    },

    async decryptBlobTexts(blobs, key) {
      await sodiumReady();
      const keyBytes = bytesOf(key);
      return eachOrNull(blobs, async (blob) => blobText(await decryptBlobBytes(blob, keyBytes)));
    },

    async encryptBlobTexts(texts, key) {
      await sodiumReady();
      const keyBytes = bytesOf(key);
      const blobs: BlobB64[] = [];
      for (const text of texts) blobs.push(await encryptBlobB64(utf8Bytes(text), keyBytes));
      return blobs;
    },

    encryptEnteExport: (password, text, cost) => encryptEnteExport(password, text, cost, onRun),
    decryptEnteExport: (password, envelope) => decryptEnteExport(password, envelope),
    argon2idKey: (password, salt, opsLimit, memLimit) => argon2idKey(password, salt, opsLimit, memLimit),

    generateKey: () => generateKeyB64(),

    async stashKey(key) {
      const stashKey = await generateKeyB64();
      const box = await encryptBoxB64(key, stashKey);
      return { encryptedData: box.encryptedData, key: stashKey, nonce: box.nonce };
    },

    async unstashKey(stash) {
      return decryptBoxB64({ encryptedData: stash.encryptedData, nonce: stash.nonce }, stash.key);
    },

    async prepare() {
      await sodiumReady();
    },
  };
}

/** The direct implementation (no Argon2id observer). */
export const cryptoAPI: CryptoAPI = createCryptoAPI();
