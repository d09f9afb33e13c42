// Photos endpoints (docs/protocol.md#photos): collections (albums), their sharing, files and their
// uploads, with museum's shapes. Ids are int64 serials carried as JSON numbers; times are µs. Keys,
// names and metadata are ciphertext the server never opens: only their sizes are checked.
import * as z from 'zod/mini';

import { b64, email, micros, text } from './common.ts';
import { limits } from './limits.ts';

/** A collection or file id (positive, within JSON's exact integers). */
export const photoID = z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER));

/** An id in a path or query string. */
export const photoIDParam = z.pipe(
  z.pipe(z.string().check(z.regex(/^\d{1,16}$/, 'must be a positive integer')), z.transform(Number)),
  photoID,
);

/** A µs time in a query string; absent means 0 (everything). */
const sinceTimeParam = z._default(
  z.pipe(
    z.pipe(z.string().check(z.regex(/^\d{1,16}$/, 'must be a non-negative integer')), z.transform(Number)),
    micros,
  ),
  0,
);

const nonce = b64(24); // secretbox nonce
const streamHeader = b64(24); // secretstream header
const boxedKey = b64(48); // a 32-byte key in a secretbox
const sealedKey = b64(80); // a 32-byte key in a sealed box
const count = z.int().check(z.minimum(0), z.maximum(1_000_000));

/** Versioned encrypted metadata (`version` counts the server's writes). */
export const magicMetadataSchema = z.object({
  version: count,
  count,
  data: b64(undefined, { min: 1, max: limits.maxMagicMetadataB64 }),
  header: streamHeader,
});
export type MagicMetadata = z.infer<typeof magicMetadataSchema>;

export const collectionTypes = ['album', 'folder', 'favorites', 'uncategorized'] as const;
export type CollectionType = (typeof collectionTypes)[number];

/** Roles a collection is shared with; the wire also knows OWNER (the owner's own) and ADMIN (not granted here). */
export const shareRoles = ['VIEWER', 'COLLABORATOR'] as const;
export type CollectionRole = 'VIEWER' | 'COLLABORATOR' | 'ADMIN' | 'OWNER';

/** POST /collections. Old mobile clients wrote the album type as `CollectionType.album`. */
export const createCollectionRequestSchema = z.object({
  encryptedKey: boxedKey,
  keyDecryptionNonce: nonce,
  encryptedName: b64(undefined, { min: 1, max: limits.maxEncryptedNameB64 }),
  nameDecryptionNonce: nonce,
  type: z.pipe(
    z.pipe(
      z.string().check(z.maxLength(64)),
      z.transform((type: string) => (type === 'CollectionType.album' ? 'album' : type)),
    ),
    z.enum(collectionTypes),
  ),
  magicMetadata: z.optional(magicMetadataSchema),
  pubMagicMetadata: z.optional(magicMetadataSchema),
});
export type CreateCollectionRequest = z.input<typeof createCollectionRequestSchema>;

/** GET /collections/v2?sinceTime=. */
export const collectionsQuerySchema = z.object({ sinceTime: sinceTimeParam });

/** GET /collections/v2/diff?collectionID=&sinceTime=. */
export const collectionDiffQuerySchema = z.object({ collectionID: photoIDParam, sinceTime: sinceTimeParam });

/** POST /collections/rename. */
export const renameCollectionRequestSchema = z.object({
  collectionID: photoID,
  encryptedName: b64(undefined, { min: 1, max: limits.maxEncryptedNameB64 }),
  nameDecryptionNonce: nonce,
});

/** A file's key boxed with the target collection's key. */
export const collectionFileItemSchema = z.object({ id: photoID, encryptedKey: boxedKey, keyDecryptionNonce: nonce });
const fileItems = z.array(collectionFileItemSchema).check(z.minLength(1), z.maxLength(limits.maxPhotosBatch));
const fileIDs = z.array(photoID).check(z.minLength(1), z.maxLength(limits.maxPhotosBatch));

/** POST /collections/add-files and /collections/restore-files. */
export const addFilesRequestSchema = z.object({ collectionID: photoID, files: fileItems });
export type AddFilesRequest = z.infer<typeof addFilesRequestSchema>;

/** POST /collections/move-files: the files leave one collection for the other, their keys boxed for the target. */
const fromAndTo = { fromCollectionID: photoID, toCollectionID: photoID };
export const moveFilesRequestSchema = z.object({ ...fromAndTo, files: fileItems });

/** POST /collections/v3/remove-files. */
export const removeFilesRequestSchema = z.object({ collectionID: photoID, fileIDs });

/** DELETE /collections/v3/:collectionID?keepFiles=. */
export const collectionIDPathSchema = z.object({ collectionID: photoIDParam });
export const deleteCollectionQuerySchema = z.object({ keepFiles: z.enum(['true', 'false']) });

/**
 * PUT /collections/magic-metadata, /collections/public-magic-metadata (the owner's) and
 * /collections/sharee-magic-metadata (a sharee's own view of it). The stored version becomes `version + 1`.
 */
export const updateCollectionMagicMetadataRequestSchema = z.object({ id: photoID, magicMetadata: magicMetadataSchema });

/** POST /collections/share: `encryptedKey` is the collection key sealed to the sharee's public key. */
export const shareCollectionRequestSchema = z.object({
  collectionID: photoID,
  email,
  role: z._default(z.enum(shareRoles), 'VIEWER'),
  encryptedKey: sealedKey,
});
export type ShareCollectionRequest = z.input<typeof shareCollectionRequestSchema>;

/** POST /collections/unshare. */
export const unshareCollectionRequestSchema = z.object({ collectionID: photoID, email });

const objectKey = text(limits.maxObjectKeyLength, { min: 1 });
const size = z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER));

/** An MD5 as base64 (24 characters) or hex (32), normalised to base64. */
export const md5Schema = z.pipe(
  z.string().check(z.regex(/^(?:[A-Za-z0-9+/]{22}==|[0-9a-fA-F]{32})$/, 'must be an MD5 in base64 or hex')),
  z.transform((md5: string) => (md5.length === 32 ? hexToB64(md5) : md5)),
);

const b64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Padded base64 of the bytes a hex string spells (no Buffer: this package runs in browsers too). */
function hexToB64(hex: string): string {
  const bytes = (hex.match(/../g) ?? []).map((pair) => parseInt(pair, 16));
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const chunk = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += b64Alphabet[(chunk >> 18) & 63] ?? '';
    out += b64Alphabet[(chunk >> 12) & 63] ?? '';
    out += b === undefined ? '=' : (b64Alphabet[(chunk >> 6) & 63] ?? '');
    out += c === undefined ? '=' : (b64Alphabet[chunk & 63] ?? '');
  }
  return out;
}

const contentLength = z.int().check(z.positive(), z.maximum(limits.maxFileBytes));

/** POST /files/upload-url. */
export const uploadUrlRequestSchema = z.object({ contentLength, contentMD5: md5Schema });
export const uploadUrlResponseSchema = z.object({ objectKey: z.string(), url: z.string() });
export type UploadUrlResponse = z.infer<typeof uploadUrlResponseSchema>;

/** POST /files/multipart-upload-url: one MD5 per part of `partLength` bytes (the last may be shorter). */
export const multipartUploadUrlRequestSchema = z.object({
  contentLength,
  partLength: z.int().check(z.positive(), z.maximum(limits.maxPartBytes)),
  partMd5s: z.array(md5Schema).check(z.minLength(1), z.maxLength(limits.maxParts)),
});
export const multipartUploadUrlResponseSchema = z.object({
  objectKey: z.string(),
  partURLs: z.array(z.string()),
  completeURL: z.string(),
});
export type MultipartUploadUrlResponse = z.infer<typeof multipartUploadUrlResponseSchema>;

const uploadedObject = z.object({ objectKey, decryptionHeader: streamHeader, size: z.optional(size) });

/** POST /files. */
export const createFileRequestSchema = z.object({
  collectionID: photoID,
  encryptedKey: boxedKey,
  keyDecryptionNonce: nonce,
  file: uploadedObject,
  thumbnail: uploadedObject,
  metadata: z.object({
    encryptedData: b64(undefined, { min: 1, max: limits.maxFileMetadataB64 }),
    decryptionHeader: streamHeader,
  }),
  magicMetadata: z.optional(magicMetadataSchema),
  pubMagicMetadata: z.optional(magicMetadataSchema),
});
export type CreateFileRequest = z.input<typeof createFileRequestSchema>;

/** GET /files/preview/:fileID and /files/download/:fileID. */
export const fileIDPathSchema = z.object({ fileID: photoIDParam });

const goTrue = ['1', 't', 'T', 'TRUE', 'true', 'True'] as const;
const goFalse = ['0', 'f', 'F', 'FALSE', 'false', 'False'] as const;

/**
 * GET /files/data/fetch?type=&fileID=&preferNoContent=: a file's derived data (a video's streamable preview, ML
 * data). `preferNoContent` is read as Go's strconv.ParseBool reads it, as museum binds it.
 */
export const fileDataQuerySchema = z.object({
  type: z.enum(['vid_preview', 'mldata'], 'unsupported object type: must be vid_preview or mldata'),
  fileID: photoIDParam,
  preferNoContent: z._default(
    z.pipe(
      z.enum([...goTrue, ...goFalse], 'must be true or false'),
      z.transform((value) => (goTrue as readonly string[]).includes(value)),
    ),
    false,
  ),
});

/** PUT /files/magic-metadata and /files/public-magic-metadata: `version` is the one the client read. */
export const updateMagicMetadataRequestSchema = z.object({
  metadataList: z
    .array(z.object({ id: photoID, magicMetadata: magicMetadataSchema }))
    .check(z.minLength(1), z.maxLength(limits.maxPhotosBatch)),
});
export type UpdateMagicMetadataRequest = z.infer<typeof updateMagicMetadataRequestSchema>;

/** A participant of a collection. `name` is museum's deprecated field, always "". */
export const collectionUserSchema = z.object({ id: z.number(), email: z.string(), name: z.string(), role: z.string() });
export type CollectionUser = z.infer<typeof collectionUserSchema>;

/** A collection as answered; `keyDecryptionNonce` only for the owner (a sharee's key is a sealed box). */
export const collectionSchema = z.object({
  id: z.number(),
  owner: collectionUserSchema,
  encryptedKey: z.string(),
  keyDecryptionNonce: z.optional(z.string()),
  name: z.string(),
  encryptedName: z.string(),
  nameDecryptionNonce: z.string(),
  type: z.string(),
  attributes: z.looseObject({ version: z.number() }),
  sharees: z.nullable(z.array(collectionUserSchema)),
  publicURLs: z.nullable(z.array(z.unknown())),
  updationTime: z.number(),
  sharedAt: z.optional(z.number()),
  isDeleted: z.optional(z.boolean()),
  magicMetadata: z.optional(magicMetadataSchema),
  pubMagicMetadata: z.optional(magicMetadataSchema),
  sharedMagicMetadata: z.optional(magicMetadataSchema),
  app: z.string(),
});
export type Collection = z.infer<typeof collectionSchema>;

export const collectionResponseSchema = z.object({ collection: collectionSchema });
export const collectionsResponseSchema = z.object({ collections: z.array(collectionSchema) });
export const shareesResponseSchema = z.object({ sharees: z.array(collectionUserSchema) });

const fileAttributes = z.object({
  objectKey: z.optional(z.string()),
  encryptedData: z.optional(z.string()),
  decryptionHeader: z.string(),
  size: z.number(),
});

/** A file as one collection holds it (the collection diff's entry, and POST /files' answer). */
export const photoFileSchema = z.object({
  id: z.number(),
  ownerID: z.number(),
  collectionID: z.number(),
  collectionOwnerID: z.nullable(z.number()),
  collectionAddedAt: z.optional(z.number()),
  encryptedKey: z.string(),
  keyDecryptionNonce: z.string(),
  file: fileAttributes,
  thumbnail: fileAttributes,
  metadata: fileAttributes,
  isDeleted: z.boolean(),
  updationTime: z.number(),
  magicMetadata: z.optional(magicMetadataSchema),
  pubMagicMetadata: z.optional(magicMetadataSchema),
  info: z.optional(z.object({ fileSize: z.optional(z.number()), thumbSize: z.optional(z.number()) })),
});
export type PhotoFile = z.infer<typeof photoFileSchema>;

export const collectionDiffResponseSchema = z.object({ diff: z.array(photoFileSchema), hasMore: z.boolean() });
export type CollectionDiffResponse = z.infer<typeof collectionDiffResponseSchema>;

/**
 * GET /remote-store/feature-flags: the flags Ente's clients read before they pull files (the web skips the pull
 * when this fails). Ours turns every feature of Ente's hosted service off; `castUrl` is the server's cast page
 * when it is set, and an empty `castUrl` or `embedUrl` keeps the client's default.
 */
const flag = z.boolean();
const hostedFlags = { enableStripe: flag, disableCFWorker: flag, mapEnabled: flag, faceSearchEnabled: flag };
const accountFlags = { passKeyEnabled: flag, recoveryKeyVerified: flag, internalUser: flag, betaUser: flag };
const clientFlags = { enableMobMultiPart: flag, serverApiFlag: z.int(), castUrl: z.string(), embedUrl: z.string() };
export const featureFlagsResponseSchema = z.object({ ...hostedFlags, ...accountFlags, ...clientFlags });
export type FeatureFlagsResponse = z.infer<typeof featureFlagsResponseSchema>;

/** GET /billing/user-plans: the one free plan of a self-hosted server (its storage is the quota), no paid plans. */
export const userPlansResponseSchema = z.object({
  freePlan: z.object({ storage: z.number(), duration: z.number(), period: z.string() }),
  plans: z.array(z.unknown()),
});
export type UserPlansResponse = z.infer<typeof userPlansResponseSchema>;
