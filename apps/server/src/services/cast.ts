// Cast (docs/protocol.md#cast): a screen registers its public key and gets a code; a signed-in sender reads the
// key by the code and pairs the screen with an album, posting a payload sealed to that key (the album key and
// a cast token the sender made); the screen polls for the payload by its code; then the cast token reads that
// album's diff and files, and nothing else. The token is stored as its SHA-256 only.
//
// What holds a cast, checked on every request (no cache): the row is live and used within 7 days, the album
// is not deleted, the caster still owns it or has it shared, and the session that paired it is live. Revoke-all,
// deleting the album and ending the caster's share (services/collections.ts) also mark the rows deleted, so a
// later share does not bring an old cast back.
//
// Codes (docs/decisions.md#cast-server): museum's six characters, an hour to pair, first pairing wins and closes
// the code. Wrong codes count, per client address (a minute) at both lookups and per account (an hour) at the
// sender's; past either, every lookup from there is refused, found or not, so that a refusal tells nothing.
import { randomInt, randomUUID } from 'node:crypto';

import {
  castCodeLetters,
  castCodeSymbols,
  castErrorTexts,
  castLimits,
  limits,
  middlewareErrorTexts,
  type CastDataRequest,
  type CastDevicesResponse,
  type Collection,
} from '@ente/protocol';

import type { ObjectStore } from '../adapters/object-store/object-store.ts';
import * as castingDb from '../db/casting.ts';
import * as collectionsDb from '../db/collections.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { lockUser } from '../db/users.ts';
import type { RequestClient } from '../http/client-app.ts';
import { apiError, middlewareError, plainError, rateLimited } from '../http/errors.ts';
import { addressKey } from '../lib/addresses.ts';
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE, MICROS_PER_SECOND } from '../lib/clock.ts';
import { sha256B64Url } from '../lib/hashing.ts';
import { collectionToWire, filesPageSince } from './collections.ts';
import type { Context } from './context.ts';

const DOWNLOAD_URL_SECONDS = 60 * 60;
/** A live code is met again by chance about once in 10⁵ registrations: a few tries always find a free one. */
const CODE_TRIES = 5;

const codeNotFound = (message: string) => apiError(404, 'NOT_FOUND', message);
const invalidCastToken = () => middlewareError(401, middlewareErrorTexts.invalidToken);

/** The session of the sender, as the token check found it. */
export interface CastSender {
  userID: number;
  app: string;
  tokenHash: string;
}

/** What a cast token opens: one album, as its caster sees it. */
export interface CastAccess {
  collectionID: number;
  userID: number;
}

// ---- the screen ----

/** POST /cast/device-info: a new code for this public key. */
export async function registerCastDevice(ctx: Context, publicKey: string, client: RequestClient): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const code = newCode();
    try {
      const now = ctx.clock.nowMicros();
      const ip = client.ip.slice(0, 64);
      await castingDb.insertCastDevice(ctx.db, {
        id: randomUUID(),
        code,
        public_key: publicKey,
        ip,
        created_at: now,
        last_used_at: now,
      });
      return code;
    } catch (error) {
      // Another live row holds the code (one not yet purged after its hour, at times): draw again.
      if (!isUniqueViolation(error) || attempt >= CODE_TRIES) throw error;
    }
  }
}

/** GET /cast/cast-data/:code: the sealed payload once a sender paired the code, null until then. */
export async function castDataOf(ctx: Context, code: string, client: RequestClient): Promise<string | null> {
  const row = await lookUpCode(ctx, code, missCounters(ctx, client), 'active code not found', (found) =>
    found.collection_id === null ? !isExpired(ctx, found.created_at) : true,
  );
  return row.encrypted_payload;
}

// ---- the sender ----

/** GET /cast/device-info/:code: the public key of a screen waiting to be paired. */
export async function castPublicKey(
  ctx: Context,
  sender: CastSender,
  code: string,
  client: RequestClient,
): Promise<string> {
  const misses = missCounters(ctx, client, sender.userID);
  // A paired code is closed: its key is nobody's business any more.
  const row = await lookUpCode(
    ctx,
    code,
    misses,
    'code not found',
    (found) => found.collection_id === null && !isExpired(ctx, found.created_at),
  );
  return row.public_key;
}

/**
 * POST /cast/cast-data: pairs the code's screen with an album the sender owns or has shared with them (else 404,
 * as for a code that is unknown, expired or already paired). At most `castLimits.maxDevices` live casts per
 * account, counted under the account's row lock.
 */
export async function publishCast(
  ctx: Context,
  sender: CastSender,
  body: CastDataRequest,
  client: RequestClient,
): Promise<void> {
  const misses = missCounters(ctx, client, sender.userID);
  await refuseOverMisses(ctx, misses);
  const now = ctx.clock.nowMicros();
  let paired: boolean;
  try {
    paired = await ctx.db.transaction().execute(async (tx) => {
      await lockUser(tx, sender.userID);
      const collection = await collectionsDb.collectionOf(tx, body.collectionID);
      const mayRead =
        collection &&
        !collection.is_deleted &&
        collection.app === sender.app &&
        (Number(collection.owner_id) === sender.userID ||
          (await collectionsDb.shareRoleOf(tx, body.collectionID, sender.userID)) !== undefined);
      if (!mayRead) throw codeNotFound('collection not found');
      if ((await castingDb.countLiveCasts(tx, sender.userID)) >= castLimits.maxDevices) {
        throw apiError(403, 'CAST_DEVICE_LIMIT_REACHED', 'device limit reached');
      }
      const createdAfter = now - castCodeMicros(ctx);
      const row = await castingDb.lockUnpairedCode(tx, body.deviceCode, createdAfter);
      if (!row) return false;
      await castingDb.pairCastDevice(tx, row.id, {
        collectionID: body.collectionID,
        userID: sender.userID,
        sessionHash: sender.tokenHash,
        tokenHash: sha256B64Url(body.castToken),
        payload: body.encPayload,
        now,
      });
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw apiError(409, 'CONFLICT', 'the cast token is already in use');
    throw error;
  }
  if (!paired) {
    await countMiss(ctx, misses);
    throw codeNotFound('code not found');
  }
}

/** DELETE /cast/revoke-all-tokens: ends every cast of the account. */
export async function revokeAllCasts(ctx: Context, userID: number): Promise<void> {
  await castingDb.revokeCasts(ctx.db, userID);
}

/** DELETE /cast/device-info/:deviceID: ends one cast of the account (another's id changes nothing). */
export async function revokeCast(ctx: Context, userID: number, deviceID: string): Promise<void> {
  await castingDb.revokeCasts(ctx.db, userID, deviceID);
}

/** GET /cast/device-info: the account's live casts. */
export async function castsOf(ctx: Context, userID: number): Promise<CastDevicesResponse['devices']> {
  const rows = await castingDb.liveCastsOf(ctx.db, userID);
  return rows.map((row) => ({
    deviceID: row.id,
    collectionID: Number(row.collection_id),
    deviceIP: row.ip,
    lastUsedAt: Number(row.last_used_at),
  }));
}

// ---- the cast token ----

/**
 * The album a cast token (X-Cast-Access-Token or ?castToken=) opens: none 401 `cast access token missing`, any
 * token that does not hold (see the top of this module) 401 `invalid token`.
 */
export async function checkCastToken(ctx: Context, token: string | undefined): Promise<CastAccess> {
  if (!token) throw middlewareError(401, castErrorTexts.missingCastToken);
  if (token.length > castLimits.maxTokenLength) throw invalidCastToken();
  const now = ctx.clock.nowMicros();
  const row = await castingDb.liveCastOfToken(ctx.db, sha256B64Url(token), {
    usedAfter: now - castLimits.tokenIdleDays * MICROS_PER_DAY,
    sessionUsedAfter: now - limits.tokenIdleDays * MICROS_PER_DAY,
  });
  if (!row) throw invalidCastToken();
  // The idle clock needs no finer grain than an hour: a playing screen writes once an hour, not per slide.
  if (now - Number(row.last_used_at) > MICROS_PER_HOUR) await castingDb.touchCast(ctx.db, row.id, now);
  return { collectionID: Number(row.collection_id), userID: Number(row.cast_user) };
}

/** GET /cast/diff: the album's files changed after `sinceTime`, without private metadata, as the answer's JSON. */
export async function castDiffJson(ctx: Context, access: CastAccess, sinceTime: number): Promise<Buffer> {
  return filesPageSince(ctx, access.collectionID, sinceTime, { forOwner: false });
}

/** GET /cast/files/preview|download/:fileID: a signed GET of a file the album holds; 404 for any other. */
export async function castFileUrl(
  ctx: Context,
  store: ObjectStore,
  access: CastAccess,
  fileID: number,
  kind: 'file' | 'thumbnail',
): Promise<string> {
  const row = await collectionsDb.collectionFileOf(ctx.db, access.collectionID, fileID);
  if (!row || row.is_deleted || row.file_deleted) throw plainError(404);
  return store.presignGet(kind === 'file' ? row.file_object_key : row.thumbnail_object_key, DOWNLOAD_URL_SECONDS);
}

/** GET /cast/info: the album without its sharees, links, private metadata or the owner's address. */
export async function castCollection(ctx: Context, access: CastAccess): Promise<Collection> {
  const row = await collectionsDb.collectionOf(ctx.db, access.collectionID);
  if (!row || row.is_deleted) throw plainError(404);
  const wire = collectionToWire({ ...row, owner_email: '' }, { sharees: [] });
  delete wire.magicMetadata;
  return wire;
}

// ---- codes ----

function newCode(): string {
  let code = castCodeLetters.charAt(randomInt(castCodeLetters.length));
  while (code.length < castLimits.codeLength) code += castCodeSymbols.charAt(randomInt(castCodeSymbols.length));
  return code;
}

/** How long an unpaired code lives (`CAST_CODE_SECONDS`: an hour unless set shorter). */
export function castCodeMicros(ctx: Pick<Context, 'config'>): number {
  return ctx.config.CAST_CODE_SECONDS * MICROS_PER_SECOND;
}

function isExpired(ctx: Context, createdAt: string | number): boolean {
  return ctx.clock.nowMicros() - Number(createdAt) > castCodeMicros(ctx);
}

type CodeRow = NonNullable<Awaited<ReturnType<typeof castingDb.liveCodeRow>>>;

/** The live row of a code that `usable` accepts; anything else is a miss, counted, and 404 with `message`. */
async function lookUpCode(
  ctx: Context,
  code: string,
  misses: readonly MissCounter[],
  message: string,
  usable: (row: CodeRow) => boolean,
): Promise<CodeRow> {
  await refuseOverMisses(ctx, misses);
  const row = await castingDb.liveCodeRow(ctx.db, code);
  if (row && usable(row)) return row;
  await countMiss(ctx, misses);
  throw codeNotFound(message);
}

interface MissCounter {
  key: string;
  limit: number;
  window: number;
}

/** The wrong-code counters of a lookup: the client address's (a minute) and, for a sender, the account's (an hour). */
function missCounters(ctx: Context, client: RequestClient, userID?: number): MissCounter[] {
  const perAddress = ctx.config.RATE_LIMIT_PER_MINUTE;
  return [
    ...(perAddress > 0
      ? [{ key: `cast-code-misses:ip:${addressKey(client.ip)}`, limit: perAddress, window: MICROS_PER_MINUTE }]
      : []),
    ...(userID === undefined
      ? []
      : [
          {
            key: `cast-code-misses:user:${userID}`,
            limit: castLimits.codeMissesPerAccountHour,
            window: MICROS_PER_HOUR,
          },
        ]),
  ];
}

async function refuseOverMisses(ctx: Context, counters: readonly MissCounter[]): Promise<void> {
  for (const counter of counters) {
    if ((await ctx.limiter.current(counter.key, counter.window)) >= counter.limit) throw rateLimited();
  }
}

async function countMiss(ctx: Context, counters: readonly MissCounter[]): Promise<void> {
  for (const counter of counters) await ctx.limiter.count(counter.key, counter.window);
}
