// Public album links (docs/protocol.md#public-links). The owner makes, changes and removes a collection's
// one live link; anyone holding its access token (and, for a password link, the token verify-password
// gave them) reads that collection's files and nothing else. A link of a deleted collection, a disabled
// link and an expired one are gone (410). The device limit counts the distinct (address, user agent)
// pairs that opened the link, as museum does: a device seen before always comes back, a new one is
// refused once the count reaches the limit (museum reads a limit of 50 as 500). Changes to a link stamp
// its collection (services/photo-clock.ts), so the owner's collection list hands out the new state.
import { randomInt } from 'node:crypto';

import {
  middlewareErrorTexts,
  publicLinkErrorTexts,
  type Collection,
  type PublicLink,
  type UpdatePublicLinkRequest,
} from '@ente/protocol';

import type { ObjectStore } from '../adapters/object-store/object-store.ts';
import * as collectionsDb from '../db/collections.ts';
import type { Db } from '../db/database.ts';
import * as linksDb from '../db/public-links.ts';
import type { PublicLinkRow } from '../db/public-links.ts';
import { apiError, badRequest, middlewareError, plainError, rateLimited } from '../http/errors.ts';
import { MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../lib/clock.ts';
import { collectionToWire, filesPageSince, lockOwned, stampCollections } from './collections.ts';
import type { Context } from './context.ts';
import { isValidLinkToken, sameText, signLinkToken } from './link-password-tokens.ts';

/** Museum's access tokens: 10 characters of its short-uuid alphabet, upper-cased (2–9 and A–Z). */
const TOKEN_ALPHABET = '23456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const TOKEN_LENGTH = 10;
/** What a presented token must look like before it is looked up (anything else is simply invalid). */
const TOKEN_SHAPE = /^[0-9A-Za-z]{1,64}$/;
/** Museum treats its largest offered limit, 50, as ten times that. */
const LARGEST_OFFERED_LIMIT = 50;
const DOWNLOAD_URL_SECONDS = 60 * 60;

const invalidToken = () => middlewareError(401, middlewareErrorTexts.invalidToken);

// ---- the owner's side ----

/** Makes the collection's link (its owner only), or answers the live one it already has. */
export async function createLink(
  ctx: Context,
  userID: number,
  body: {
    collectionID: number;
    enableCollect?: boolean | undefined;
    enableComment?: boolean | undefined;
    enableJoin?: boolean | undefined;
    validTill?: number | undefined;
    deviceLimit?: number | undefined;
  },
): Promise<PublicLink> {
  const row = await ctx.db.transaction().execute(async (tx) => {
    const collection = await lockOwned(tx, body.collectionID, userID);
    if (collection.type === 'uncategorized') throw badRequest('an uncategorized collection cannot be shared');
    const live = await linksDb.liveLinkOf(tx, body.collectionID);
    if (live) return live;
    return linksDb.insertLink(tx, {
      collectionID: body.collectionID,
      accessToken: newAccessToken(),
      validTill: body.validTill ?? 0,
      deviceLimit: body.deviceLimit ?? 0,
      enableCollect: body.enableCollect ?? false,
      enableComment: body.enableComment ?? false,
      enableJoin: body.enableJoin ?? true,
      time: await stampCollections(tx, [collection]),
    });
  });
  return linkToWire(ctx, row);
}

/** Changes the live link of a collection (its owner only): the fields given, with museum's checks. */
export async function updateLink(ctx: Context, userID: number, body: UpdatePublicLinkRequest): Promise<PublicLink> {
  const { collectionID, ...changes } = body;
  if (Object.keys(changes).length === 0) throw badRequest('all parameters are missing');
  if (body.validTill && body.validTill < ctx.clock.nowMicros()) {
    throw badRequest('valid till should be greater than current timestamp');
  }
  const password = [body.passHash, body.nonce, body.memLimit, body.opsLimit];
  const setsPassword = password.every((value) => value !== undefined);
  if (!setsPassword && password.some((value) => value !== undefined)) {
    throw badRequest('all password params should be either present or missing');
  }
  if (setsPassword && body.disablePassword) throw badRequest('can not set and disable password in same request');
  const row = await ctx.db.transaction().execute(async (tx) => {
    const collection = await lockOwned(tx, collectionID, userID);
    const live = await linksDb.liveLinkOf(tx, collectionID);
    if (!live) throw plainError(404);
    const time = await stampCollections(tx, [collection]);
    return linksDb.updateLink(tx, live.id, {
      ...(body.validTill !== undefined && { valid_till: body.validTill }),
      ...(body.deviceLimit !== undefined && { device_limit: body.deviceLimit }),
      ...(setsPassword && {
        pw_hash: body.passHash,
        pw_nonce: body.nonce,
        mem_limit: body.memLimit,
        ops_limit: body.opsLimit,
      }),
      ...(!setsPassword && body.disablePassword && { pw_hash: null, pw_nonce: null, mem_limit: null, ops_limit: null }),
      ...(body.enableDownload !== undefined && { enable_download: body.enableDownload }),
      ...(body.enableCollect !== undefined && { enable_collect: body.enableCollect }),
      ...(body.enableComment !== undefined && { enable_comment: body.enableComment }),
      ...(body.enableJoin !== undefined && { enable_join: body.enableJoin }),
      updated_at: time,
    });
  });
  return linkToWire(ctx, row);
}

/** Disables the collection's link (its owner only); none is a success. */
export async function disableLink(ctx: Context, userID: number, collectionID: number): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const collection = await lockOwned(tx, collectionID, userID, { includeDeleted: true });
    if (!(await linksDb.liveLinkOf(tx, collectionID, { lock: true }))) return;
    await linksDb.disableLinks(tx, collectionID, await stampCollections(tx, [collection]));
  });
}

/** A deleted collection's link goes with it (inside the delete's transaction, at its time). */
export async function disableLinksOf(tx: Db, collectionID: number, time: number): Promise<void> {
  await linksDb.disableLinks(tx, collectionID, time);
}

/** The live links of these collections, as their owner sees them (a collection's `publicURLs`). */
export async function linksOf(
  ctx: Context,
  db: Db,
  collectionIDs: readonly number[],
): Promise<Map<number, PublicLink[]>> {
  const links = new Map<number, PublicLink[]>();
  for (const row of await linksDb.liveLinksOf(db, collectionIDs)) {
    const id = Number(row.collection_id);
    links.set(id, [...(links.get(id) ?? []), linkToWire(ctx, row)]);
  }
  return links;
}

function newAccessToken(): string {
  let token = '';
  for (let i = 0; i < TOKEN_LENGTH; i++) token += TOKEN_ALPHABET.charAt(randomInt(TOKEN_ALPHABET.length));
  return token;
}

/** The link's URL: the public albums page with `?t=<token>` (docs/decisions.md#photos-trash-and-public-links). */
function linkUrl(ctx: Context, accessToken: string): string {
  const { PUBLIC_ALBUMS_URL, PHOTOS_APP_ORIGINS } = ctx.config;
  const url = new URL(PUBLIC_ALBUMS_URL ?? `${PHOTOS_APP_ORIGINS[0] ?? 'http://localhost:3000'}/shared-albums`);
  url.searchParams.set('t', accessToken);
  return url.toString();
}

function linkToWire(ctx: Context, row: PublicLinkRow): PublicLink {
  const passwordEnabled = row.pw_hash !== null;
  return {
    url: linkUrl(ctx, row.access_token),
    deviceLimit: row.device_limit,
    validTill: Number(row.valid_till),
    enableDownload: row.enable_download,
    enableCollect: row.enable_collect,
    enableComment: row.enable_comment,
    enableJoin: row.enable_join,
    passwordEnabled,
    ...(passwordEnabled && {
      nonce: row.pw_nonce ?? '',
      memLimit: Number(row.mem_limit),
      opsLimit: Number(row.ops_limit),
    }),
  };
}

// ---- the viewer's side ----

/** What a request to /public-collection/* presents. */
export interface PresentedLink {
  accessToken: string | undefined;
  /** The verify-password token of a password link. */
  jwt: string | undefined;
  ip: string;
  userAgent: string;
}

/**
 * What a route needs of the link: `password` (every route but /info and /verify-password needs the
 * verify-password token of a password link) and `admit` (/info and /diff count the device against the limit).
 */
export interface LinkCheck {
  password: boolean;
  admit: boolean;
}

/** A link that let a request in. */
export interface LinkAccess {
  link: PublicLinkRow;
  collectionID: number;
}

/**
 * Checks a presented link: missing → 401 `missing accessToken`, unknown → 401 `invalid token`, disabled
 * (or its collection deleted) → 410, expired → 410, a password link without a valid token → 401, a new
 * device past the limit → 403 LINK_DEVICE_LIMIT_EXCEEDED.
 */
export async function checkLink(ctx: Context, presented: PresentedLink, check: LinkCheck): Promise<LinkAccess> {
  const { accessToken } = presented;
  if (!accessToken) throw middlewareError(401, publicLinkErrorTexts.missingAccessToken);
  if (!TOKEN_SHAPE.test(accessToken)) throw invalidToken();
  const found = await linksDb.linkByToken(ctx.db, accessToken);
  if (!found) throw invalidToken();
  const { collection_deleted: collectionDeleted, ...link } = found;
  if (link.is_disabled || collectionDeleted) throw middlewareError(410, publicLinkErrorTexts.disabledToken);
  const now = ctx.clock.nowMicros();
  const validTill = Number(link.valid_till);
  if (validTill > 0 && validTill < now) throw middlewareError(410, publicLinkErrorTexts.expiredToken);
  if (check.password && link.pw_hash !== null) {
    const passed =
      presented.jwt !== undefined &&
      isValidLinkToken(
        ctx.secrets.linkPasswordKey,
        presented.jwt,
        { id: Number(link.id), passHash: link.pw_hash },
        now,
      );
    if (!passed) throw middlewareError(401, publicLinkErrorTexts.passwordRequired);
  }
  if (check.admit) await admitDevice(ctx, link, presented);
  return { link, collectionID: Number(link.collection_id) };
}

async function admitDevice(ctx: Context, link: PublicLinkRow, presented: PresentedLink): Promise<void> {
  const limit = link.device_limit === LARGEST_OFFERED_LIMIT ? 10 * LARGEST_OFFERED_LIMIT : link.device_limit;
  // Without a limit nothing is recorded (museum records every device): the history of a link stays within
  // its limit, however many user agents a client makes up.
  if (limit === 0) return;
  const device = { ip: presented.ip, userAgent: presented.userAgent.slice(0, 512) };
  if (await linksDb.deviceSeen(ctx.db, link.id, device.ip, device.userAgent)) return;
  const now = ctx.clock.nowMicros();
  // Admissions of one link one at a time, so that two new devices cannot both take the last place.
  await ctx.db.transaction().execute(async (tx) => {
    await linksDb.lockLink(tx, link.id);
    if (await linksDb.deviceSeen(tx, link.id, device.ip, device.userAgent)) return;
    if ((await linksDb.deviceCount(tx, link.id)) >= limit) {
      throw apiError(403, 'LINK_DEVICE_LIMIT_EXCEEDED', 'Public link device limit reached');
    }
    await linksDb.recordDevice(tx, link.id, device, now);
  });
}

/**
 * GET /public-collection/info: the collection without its sharees, private metadata or owner's address. The
 * link's hidden settings keep their fields with museum's zero values (`url` "", `deviceLimit` and `validTill`
 * 0): Ente's public album page refuses a link without them.
 */
export async function linkCollection(ctx: Context, access: LinkAccess): Promise<Collection> {
  const row = await collectionsDb.collectionOf(ctx.db, access.collectionID);
  if (!row || row.is_deleted) throw plainError(404);
  const { link } = access;
  const passwordEnabled = link.pw_hash !== null;
  const wire = collectionToWire({ ...row, owner_email: '' }, { sharees: [] });
  delete wire.magicMetadata;
  return {
    ...wire,
    publicURLs: [
      {
        url: '',
        deviceLimit: 0,
        validTill: 0,
        enableDownload: link.enable_download,
        enableCollect: link.enable_collect,
        enableComment: link.enable_comment,
        enableJoin: link.enable_join,
        passwordEnabled,
        ...(passwordEnabled && {
          nonce: link.pw_nonce,
          memLimit: Number(link.mem_limit),
          opsLimit: Number(link.ops_limit),
        }),
      },
    ],
  };
}

/**
 * GET /public-collection/diff: the collection's files changed after `sinceTime`, without private metadata,
 * as the JSON of the answer.
 */
export async function linkDiffJson(ctx: Context, access: LinkAccess, sinceTime: number): Promise<Buffer> {
  return filesPageSince(ctx, access.collectionID, sinceTime, { forOwner: false });
}

/** A signed GET of a file (or its thumbnail) that the link's collection holds; 404 for any other file. */
export async function linkFileUrl(
  ctx: Context,
  store: ObjectStore,
  access: LinkAccess,
  fileID: number,
  kind: 'file' | 'thumbnail',
): Promise<string> {
  const file = await linksDb.fileInCollection(ctx.db, access.collectionID, fileID);
  if (!file) throw plainError(404);
  return store.presignGet(kind === 'file' ? file.file_object_key : file.thumbnail_object_key, DOWNLOAD_URL_SECONDS);
}

/**
 * The collect routes (an upload into the album through its link): the link must allow collecting (405
 * PUBLIC_COLLECT_DISABLED, museum's), and `urls` of them count against the link's upload-URL allowance
 * per minute, from every address together. Answers the album's owner and app: an upload is theirs, under
 * their keys and quota (services/files.ts does the rest).
 */
export async function collectingFor(
  ctx: Context,
  access: LinkAccess,
  urls: 'urls' | 'file',
): Promise<{ ownerID: number; app: string }> {
  if (!access.link.enable_collect) {
    throw apiError(405, 'PUBLIC_COLLECT_DISABLED', 'User has not enabled public collect for this url');
  }
  const perMinute = ctx.config.PHOTOS_UPLOAD_URLS_PER_MINUTE;
  const key = `link-upload-urls:${String(access.link.id)}`;
  if (urls === 'urls' && perMinute > 0 && !(await ctx.limiter.allow(key, perMinute, MICROS_PER_MINUTE))) {
    throw rateLimited();
  }
  const collection = await collectionsDb.collectionOf(ctx.db, access.collectionID);
  if (!collection || collection.is_deleted) throw plainError(404);
  return { ownerID: Number(collection.owner_id), app: collection.app };
}

/**
 * POST /public-collection/verify-password: the token for a password link when `passHash` is its hash
 * (compared in constant time). Tries are limited per link, from every address together; the route limits
 * them per address too.
 */
export async function verifyLinkPassword(ctx: Context, access: LinkAccess, passHash: string): Promise<string> {
  const { link } = access;
  if (link.pw_hash === null) throw badRequest('the link has no password');
  const perHour = ctx.config.PUBLIC_LINK_PASSWORD_TRIES_PER_HOUR;
  if (perHour > 0 && !(await ctx.limiter.allow(`link-password:${String(link.id)}`, perHour, MICROS_PER_HOUR))) {
    throw rateLimited();
  }
  if (!sameText(passHash, link.pw_hash)) throw plainError(401);
  return signLinkToken(ctx.secrets.linkPasswordKey, { id: Number(link.id), passHash }, ctx.clock.nowMicros());
}
