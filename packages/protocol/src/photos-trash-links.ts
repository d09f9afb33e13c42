// Photos trash and public album links (docs/protocol.md#trash and #public-links), with museum's shapes.
// Times are µs; a link's password travels only as the client's Argon2id hash of it, with its salt and
// parameters, so that other viewers can derive the same hash.
import * as z from 'zod/mini';

import { b64, micros } from './common.ts';
import { limits } from './limits.ts';
import { photoFileSchema, photoID } from './photos.ts';

/** POST /files/trash: each file leaves every collection; `collectionID` (the caller's) keeps its key for the trash diff. */
export const trashFilesRequestSchema = z.object({
  items: z
    .array(z.object({ fileID: photoID, collectionID: photoID }))
    .check(z.minLength(1), z.maxLength(limits.maxPhotosBatch)),
});
export type TrashFilesRequest = z.infer<typeof trashFilesRequestSchema>;

/** POST /trash/delete: deleted for ever; ids not in the caller's trash are skipped. */
export const deleteFromTrashRequestSchema = z.object({
  fileIDs: z.array(photoID).check(z.minLength(1), z.maxLength(limits.trashDiffPage)),
});

/** POST /trash/empty: everything trashed at or before `lastUpdatedAt` (the client's trash cursor). */
export const emptyTrashRequestSchema = z.object({ lastUpdatedAt: micros });

/** One entry of GET /trash/v2/diff: a deleted entry's file carries no metadata. */
export const trashEntrySchema = z.object({
  file: photoFileSchema,
  isDeleted: z.boolean(),
  isRestored: z.boolean(),
  deleteBy: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type TrashEntry = z.infer<typeof trashEntrySchema>;
export const trashDiffResponseSchema = z.object({ diff: z.array(trashEntrySchema), hasMore: z.boolean() });
export type TrashDiffResponse = z.infer<typeof trashDiffResponseSchema>;

/** A link's device limit: 0 is none (museum's range). */
const deviceLimit = z.int().check(z.minimum(0), z.maximum(limits.maxLinkDeviceLimit));

/** POST /collections/share-url. */
export const createPublicLinkRequestSchema = z.object({
  collectionID: photoID,
  enableCollect: z.optional(z.boolean()),
  enableComment: z.optional(z.boolean()),
  enableJoin: z.optional(z.boolean()),
  validTill: z.optional(micros),
  deviceLimit: z.optional(deviceLimit),
});
export type CreatePublicLinkRequest = z.infer<typeof createPublicLinkRequestSchema>;

/** A password hash: base64 of the client's Argon2id output (32 bytes in Ente's clients). */
const passHash = b64(undefined, { min: 1, max: 256 });
const kdfLimit = z.int().check(z.minimum(1), z.maximum(limits.maxMemLimit));

/**
 * PUT /collections/share-url: the fields given change. A password is set with all four of passHash,
 * nonce, opsLimit and memLimit, or removed with disablePassword (not both).
 */
const linkChanges = z.partial(
  z.object({
    validTill: micros,
    deviceLimit,
    passHash,
    nonce: b64(undefined, { min: 1, max: 128 }),
    memLimit: kdfLimit,
    opsLimit: kdfLimit,
    enableDownload: z.boolean(),
    enableCollect: z.boolean(),
    enableComment: z.boolean(),
    enableJoin: z.boolean(),
    disablePassword: z.boolean(),
  }),
);
export const updatePublicLinkRequestSchema = z.extend(linkChanges, { collectionID: photoID });
export type UpdatePublicLinkRequest = z.infer<typeof updatePublicLinkRequestSchema>;

/** A link as its owner sees it (`result` of the two calls above, and a collection's `publicURLs`). */
const linkLimits = { deviceLimit: z.number(), validTill: z.number() };
const linkSwitches = { enableDownload: z.boolean(), enableCollect: z.boolean(), enableComment: z.boolean() };
const linkPassword = {
  nonce: z.optional(z.string()),
  memLimit: z.optional(z.number()),
  opsLimit: z.optional(z.number()),
};
export const publicLinkSchema = z.object({
  url: z.string(),
  ...linkLimits,
  ...linkSwitches,
  enableJoin: z.boolean(),
  passwordEnabled: z.boolean(),
  ...linkPassword,
});
export type PublicLink = z.infer<typeof publicLinkSchema>;
export const publicLinkResponseSchema = z.object({ result: publicLinkSchema });

/** POST /public-collection/verify-password. */
export const verifyLinkPasswordRequestSchema = z.object({ passHash });
export const verifyLinkPasswordResponseSchema = z.object({ jwtToken: z.string() });

/**
 * The `{error}` texts of the public-link checks, as museum words them (`invalid token` is the middleware's);
 * kept here, not in error-texts.ts, which the sign-in pages load first.
 */
export const publicLinkErrorTexts = {
  missingAccessToken: 'missing accessToken',
  disabledToken: 'disabled token',
  expiredToken: 'expired token',
  passwordRequired: 'password required',
} as const;
