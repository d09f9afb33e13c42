// The cast queries (docs/protocol.md#cast): screens registered by code, their pairing with an album, and the
// check of a cast token. Each takes the database or a transaction; the rules (expiry, limits, who may pair)
// are services/cast.ts's.
import { sql, type Insertable } from 'kysely';

import type { Db } from './database.ts';
import type { CastingTable } from './schema.ts';

/** A screen's row as it registers: its code, key and address, unpaired. */
export async function insertCastDevice(
  db: Db,
  device: Pick<Insertable<CastingTable>, 'id' | 'code' | 'public_key' | 'ip' | 'created_at' | 'last_used_at'>,
): Promise<void> {
  await db.insertInto('casting').values(device).execute();
}

/** The live row of a code (paired or not), or undefined. */
export async function liveCodeRow(db: Db, code: string) {
  return db
    .selectFrom('casting')
    .select(['id', 'public_key', 'collection_id', 'encrypted_payload', 'created_at'])
    .where((eb) => eb.and({ code, is_deleted: false }))
    .executeTakeFirst();
}

/** Locks the live, unpaired row of a code registered after `createdAfter`. */
export async function lockUnpairedCode(tx: Db, code: string, createdAfter: number) {
  return tx
    .selectFrom('casting')
    .select('id')
    .where((eb) =>
      eb.and([
        eb('code', '=', code),
        eb('is_deleted', '=', false),
        eb('collection_id', 'is', null),
        eb('created_at', '>', createdAfter),
      ]),
    )
    .forUpdate()
    .executeTakeFirst();
}

/** Fills in a locked row's pairing. */
export async function pairCastDevice(
  tx: Db,
  id: string,
  pairing: {
    collectionID: number;
    userID: number;
    sessionHash: string;
    tokenHash: string;
    payload: string;
    now: number;
  },
): Promise<void> {
  await tx
    .updateTable('casting')
    .set({
      collection_id: pairing.collectionID,
      cast_user: pairing.userID,
      session_hash: pairing.sessionHash,
      token_hash: pairing.tokenHash,
      encrypted_payload: pairing.payload,
      paired_at: pairing.now,
      last_used_at: pairing.now,
    })
    .where('id', '=', id)
    .execute();
}

/** The caster's live paired screens, newest first. */
export async function liveCastsOf(db: Db, userID: number) {
  return db
    .selectFrom('casting')
    .select(['id', 'collection_id', 'ip', 'last_used_at'])
    .where((eb) => eb.and({ cast_user: userID, is_deleted: false }))
    .orderBy('created_at', 'desc')
    .execute();
}

export async function countLiveCasts(db: Db, userID: number): Promise<number> {
  const row = await db
    .selectFrom('casting')
    .select(sql<string>`count(*)`.as('count'))
    .where((eb) => eb.and({ cast_user: userID, is_deleted: false }))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Ends casts: every one of a caster, or one screen of theirs. */
export async function revokeCasts(db: Db, userID: number, deviceID?: string): Promise<void> {
  let query = db
    .updateTable('casting')
    .set({ is_deleted: true })
    .where((eb) => eb.and({ cast_user: userID, is_deleted: false }));
  if (deviceID !== undefined) query = query.where('id', '=', deviceID);
  await query.execute();
}

/** Ends the casts of an album: every one (the album is deleted), or those of one caster (unshared, left). */
export async function revokeCastsOfCollection(tx: Db, collectionID: number, casterID?: number): Promise<void> {
  let query = tx
    .updateTable('casting')
    .set({ is_deleted: true })
    .where((eb) => eb.and({ collection_id: collectionID, is_deleted: false }));
  if (casterID !== undefined) query = query.where('cast_user', '=', casterID);
  await query.execute();
}

/**
 * The pairing of a cast token that still holds, in one statement: the row is live and used after `usedAfter`,
 * the album is not deleted, the caster owns it or has a live share of it, and the session that paired it is
 * live (not logged out, revoked, or idle since `sessionUsedAfter`).
 */
export async function liveCastOfToken(
  db: Db,
  tokenHash: string,
  cutoffs: { usedAfter: number; sessionUsedAfter: number },
) {
  return db
    .selectFrom('casting as k')
    .innerJoin('collections as c', 'c.collection_id', 'k.collection_id')
    .innerJoin('tokens as t', 't.token_hash', 'k.session_hash')
    .select(['k.id', 'k.collection_id', 'k.cast_user', 'k.last_used_at'])
    .where((eb) =>
      eb.and([
        eb('k.token_hash', '=', tokenHash),
        eb('k.is_deleted', '=', false),
        eb('k.last_used_at', '>', cutoffs.usedAfter),
        eb('c.is_deleted', '=', false),
        eb('t.is_deleted', '=', false),
        eb('t.user_id', '=', eb.ref('k.cast_user')),
        eb('t.last_used_at', '>', cutoffs.sessionUsedAfter),
        eb.or([
          eb('c.owner_id', '=', eb.ref('k.cast_user')),
          eb.exists(
            eb
              .selectFrom('collection_shares as s')
              .select(sql<number>`1`.as('one'))
              .where((inner) =>
                inner.and([
                  inner('s.collection_id', '=', inner.ref('k.collection_id')),
                  inner('s.to_user_id', '=', inner.ref('k.cast_user')),
                  inner('s.is_deleted', '=', false),
                ]),
              ),
          ),
        ]),
      ]),
    )
    .executeTakeFirst();
}

export async function touchCast(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('casting').set({ last_used_at: now }).where('id', '=', id).execute();
}

/** Deletes rows that can no longer pair or cast: unpaired ones registered before `unpairedBefore`, the rest unused since `idleBefore` or revoked. */
export async function deleteStaleCasts(db: Db, cutoffs: { unpairedBefore: number; idleBefore: number }) {
  await db
    .deleteFrom('casting')
    .where((eb) =>
      eb.or([
        eb.and([eb('collection_id', 'is', null), eb('created_at', '<', cutoffs.unpairedBefore)]),
        eb('last_used_at', '<', cutoffs.idleBefore),
        eb('is_deleted', '=', true),
      ]),
    )
    .execute();
}
