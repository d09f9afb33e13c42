// The one diff rule of photos (docs/protocol.md#photos): every change a client must see gets an
// updation_time larger than any time already stamped on what the same users see, and two changes seen by
// one user are never stamped in an order other than their commits. A write transaction first locks the
// collections it changes (db/collections.ts lockCollections, in id order), then calls `stampChange` with
// everyone who sees the change (owners and sharees): their clocks are locked in id order, the time is the
// database clock but past each of their last times, and the clocks move to it. A reader whose cursor is
// the largest time it has seen can then never miss a row committed later. The authenticator's sync uses
// the same rule under its own per-user lock (db/change-times.ts).
import type { Db } from '../db/database.ts';
import { insertMissingClocks, lockClocksForNextTime, setClocks } from '../db/photo-clock.ts';

/** The time of a change seen by `userIDs`, inside the transaction that writes it. */
export async function stampChange(tx: Db, userIDs: Iterable<number>): Promise<number> {
  const users = [...new Set(userIDs)].sort((a, b) => a - b);
  if (users.length === 0) throw new Error('a change seen by nobody');
  await insertMissingClocks(tx, users);
  const time = await lockClocksForNextTime(tx, users);
  await setClocks(tx, users, time);
  return time;
}
