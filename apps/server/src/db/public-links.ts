// The public link queries (docs/protocol.md#public-links): one live link per collection at most, looked up by
// its access token, and the devices that opened it. Each takes the database or a transaction; the rules
// (owner only, expiry, passwords, the device limit) are services/public-links.ts's.
import type { Selectable, Updateable } from 'kysely';

import type { Db } from './database.ts';
import type { PublicCollectionTokensTable } from './schema.ts';

export type PublicLinkRow = Selectable<PublicCollectionTokensTable>;

/** The collection's live (not disabled) link, locked FOR UPDATE when `lock`. */
export async function liveLinkOf(db: Db, collectionID: number, options: { lock?: boolean } = {}) {
  let query = db
    .selectFrom('public_collection_tokens')
    .selectAll()
    .where((eb) => eb.and({ collection_id: collectionID, is_disabled: false }));
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The live links of these collections. */
export async function liveLinksOf(db: Db, collectionIDs: readonly number[]): Promise<PublicLinkRow[]> {
  if (collectionIDs.length === 0) return [];
  return db
    .selectFrom('public_collection_tokens')
    .selectAll()
    .where((eb) => eb.and([eb('collection_id', 'in', collectionIDs), eb('is_disabled', '=', false)]))
    .execute();
}

/** The link with this access token (in any state), with whether its collection is deleted. */
export async function linkByToken(db: Db, accessToken: string) {
  return db
    .selectFrom('public_collection_tokens as l')
    .innerJoin('collections as c', 'c.collection_id', 'l.collection_id')
    .selectAll('l')
    .select('c.is_deleted as collection_deleted')
    .where('l.access_token', '=', accessToken)
    .executeTakeFirst();
}

export async function insertLink(
  tx: Db,
  link: {
    collectionID: number;
    accessToken: string;
    validTill: number;
    deviceLimit: number;
    enableCollect: boolean;
    enableComment: boolean;
    enableJoin: boolean;
    time: number;
  },
): Promise<PublicLinkRow> {
  return tx
    .insertInto('public_collection_tokens')
    .values({
      collection_id: link.collectionID,
      access_token: link.accessToken,
      valid_till: link.validTill,
      device_limit: link.deviceLimit,
      enable_collect: link.enableCollect,
      enable_comment: link.enableComment,
      enable_join: link.enableJoin,
      created_at: link.time,
      updated_at: link.time,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateLink(
  tx: Db,
  id: number | string,
  values: Updateable<PublicCollectionTokensTable>,
): Promise<PublicLinkRow> {
  return tx
    .updateTable('public_collection_tokens')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Disables the collection's live links; true when there was one. */
export async function disableLinks(tx: Db, collectionID: number, time: number): Promise<boolean> {
  const rows = await tx
    .updateTable('public_collection_tokens')
    .set({ is_disabled: true, updated_at: time })
    .where((eb) => eb.and({ collection_id: collectionID, is_disabled: false }))
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Locks the link row (device admissions of one link happen one at a time). */
export async function lockLink(tx: Db, id: number | string): Promise<void> {
  await tx.selectFrom('public_collection_tokens').select('id').where('id', '=', id).forUpdate().execute();
}

export async function deviceSeen(db: Db, shareID: number | string, ip: string, userAgent: string): Promise<boolean> {
  const row = await db
    .selectFrom('public_collection_access_history')
    .select('share_id')
    .where((eb) => eb.and({ share_id: shareID, ip, user_agent: userAgent }))
    .executeTakeFirst();
  return row !== undefined;
}

export async function deviceCount(db: Db, shareID: number | string): Promise<number> {
  const row = await db
    .selectFrom('public_collection_access_history')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('share_id', '=', shareID)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function recordDevice(
  tx: Db,
  shareID: number | string,
  device: { ip: string; userAgent: string },
  time: number,
): Promise<void> {
  await tx
    .insertInto('public_collection_access_history')
    .values({ share_id: shareID, ip: device.ip, user_agent: device.userAgent, created_at: time })
    .onConflict((conflict) => conflict.columns(['share_id', 'ip', 'user_agent']).doNothing())
    .execute();
}

/** Whether the collection holds the file (live) and the file is not deleted for ever; its object keys if so. */
export async function fileInCollection(db: Db, collectionID: number, fileID: number) {
  return db
    .selectFrom('collection_files as cf')
    .innerJoin('files as f', 'f.file_id', 'cf.file_id')
    .select(['f.file_object_key', 'f.thumbnail_object_key'])
    .where((eb) =>
      eb.and({ 'cf.collection_id': collectionID, 'cf.file_id': fileID, 'cf.is_deleted': false, 'f.is_deleted': false }),
    )
    .executeTakeFirst();
}
