// The trash without HTTP (docs/protocol.md#trash): trashing takes a file out of every collection (shared
// ones included) and every diff that showed it reports it gone at a later time; another account's ids
// change nothing; restoring, deleting for ever (storage drops, objects go to the ledger), emptying up to a
// time, the 30-day expiry run by several processes at once, pages that never split a change, and the
// one diff rule for the trash diff and the collection diffs under concurrent writers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ledgerRowOf } from '../db/object-ledger.ts';
import { MICROS_PER_DAY } from '../lib/clock.ts';
import { suiteContext } from '../testing/context.ts';
import { collectionDiff, fixtureAlbum, fixtureFile, fixtureKey, fixtureUser } from '../testing/photo-fixtures.ts';
import { refused } from '../testing/refusals.ts';
import * as collections from './collections.ts';
import { storageOf } from './files.ts';
import * as trash from './trash.ts';

describe('trash', () => {
  const testContext = suiteContext();
  const ctx = () => testContext().ctx;
  const user = () => fixtureUser(ctx(), 'trash');
  const album = (ownerID: number) => fixtureAlbum(ctx(), ownerID);
  const file = (ownerID: number, collectionID: number, size?: number) =>
    fixtureFile(ctx(), ownerID, collectionID, size);
  /** The live file ids of a collection as `userID` sees them, and its diff's last time. */
  const liveIn = async (userID: number, collectionID: number) =>
    (await collectionDiff(ctx(), userID, collectionID, 0)).diff.filter((f) => !f.isDeleted).map((f) => f.id);
  const trashOf = async (userID: number, since = 0) => (await trash.trashDiff(ctx(), userID, 'photos', since)).diff;
  /** A new account's file in two of its albums. */
  const fileInTwoAlbums = async () => {
    const owner = await user();
    const [first, second] = [await album(owner.id), await album(owner.id)];
    const { id } = await file(owner.id, first);
    await collections.addFiles(ctx(), owner.id, 'photos', { collectionID: second, files: [fixtureKey(id)] });
    return { owner, first, second, id };
  };
  const shareWith = (ownerID: number, collectionID: number, email: string, role: 'VIEWER' | 'COLLABORATOR') =>
    collections.shareCollection(ctx(), ownerID, {
      collectionID,
      email,
      role,
      encryptedKey: Buffer.alloc(80, 1).toString('base64'),
    });
  const restore = (userID: number, collectionID: number, fileIDs: number[]) =>
    collections.addFiles(ctx(), userID, 'photos', { collectionID, files: fileIDs.map(fixtureKey) }, { restore: true });

  test('a trashed file leaves every collection, a sharee’s view included, at a time past every cursor', async () => {
    const sharee = await user();
    const { owner, first, second, id } = await fileInTwoAlbums();
    await shareWith(owner.id, second, sharee.email, 'VIEWER');
    const cursor = (await collectionDiff(ctx(), sharee.id, second, 0)).diff[0]?.updationTime ?? 0;
    const listCursor = Math.max(
      ...(await collections.collectionsOf(ctx(), sharee.id, 'photos', 0)).map((c) => c.updationTime),
    );

    await trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID: first }]);

    assert.deepEqual(await liveIn(owner.id, first), []);
    assert.deepEqual(await liveIn(owner.id, second), []);
    const seen = (await collectionDiff(ctx(), sharee.id, second, cursor)).diff;
    assert.deepEqual(
      seen.map((f) => [f.id, f.isDeleted]),
      [[id, true]],
    );
    assert.deepEqual(
      (await collections.collectionsOf(ctx(), sharee.id, 'photos', listCursor)).map((c) => c.id),
      [second],
    );
    const [entry] = await trashOf(owner.id);
    assert.equal(entry?.file.id, id);
    assert.equal(entry.file.collectionID, first);
    assert.equal(entry.file.encryptedKey, Buffer.alloc(48, 14).toString('base64'));
    assert.equal(entry.isDeleted, false);
    assert.equal(entry.isRestored, false);
    assert.equal(entry.deleteBy - ctx().clock.nowMicros(), trash.TRASH_LIFETIME_MICROS);
    assert.ok(entry.updatedAt > cursor);
    assert.ok(entry.file.magicMetadata, 'the owner gets their private metadata back');
    assert.deepEqual(await trashOf(sharee.id), []);
  });

  test('another account’s file or collection, an unknown id, a pair never held, a repeated file: refused, nothing changes', async () => {
    const [owner, other] = [await user(), await user()];
    const [mine, theirs] = [await album(owner.id), await album(other.id)];
    const { id } = await file(owner.id, mine);
    const { id: theirFile } = await file(other.id, theirs);
    const { id: elsewhere } = await file(owner.id, await album(owner.id));

    await refused(trash.trashFiles(ctx(), owner.id, [{ fileID: theirFile, collectionID: theirs }]), 403);
    await refused(trash.trashFiles(ctx(), owner.id, [{ fileID: theirFile, collectionID: mine }]), 403);
    await refused(trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID: theirs }]), 403);
    await refused(trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID: 999_999_999 }]), 404);
    await refused(trash.trashFiles(ctx(), owner.id, [{ fileID: 999_999_999, collectionID: mine }]), 404);
    await refused(
      trash.trashFiles(ctx(), owner.id, [{ fileID: elsewhere, collectionID: mine }]),
      404,
      'FILE_NOT_FOUND_IN_ALBUM',
    );
    await refused(
      trash.trashFiles(ctx(), owner.id, [
        { fileID: id, collectionID: mine },
        { fileID: id, collectionID: mine },
      ]),
      400,
    );
    // One bad item spoils the request: the good one stays where it was.
    await refused(
      trash.trashFiles(ctx(), owner.id, [
        { fileID: id, collectionID: mine },
        { fileID: theirFile, collectionID: mine },
      ]),
      403,
    );
    assert.deepEqual(await liveIn(owner.id, mine), [id]);
    assert.deepEqual(await liveIn(other.id, theirs), [theirFile]);
    assert.deepEqual(await trashOf(owner.id), []);
    assert.deepEqual(await trashOf(other.id), []);

    // Nor can another account delete it for ever or restore it once it is in the trash.
    await trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID: mine }]);
    assert.equal(await trash.deleteForEver(ctx(), other.id, [id]), 0);
    await refused(trash.deleteFromTrash(ctx(), other.id, [id]), 403);
    await refused(trash.deleteFromTrash(ctx(), owner.id, [id, 999_999_999]), 404);
    await refused(restore(other.id, theirs, [id]), 403);
    const [entry] = await trashOf(owner.id);
    assert.equal(entry?.isDeleted, false);
    assert.equal(entry.isRestored, false);
  });

  test('deleting an album without keeping its files trashes the owner’s files under it; others’ files just leave', async () => {
    const collaborator = await user();
    const { owner, first: doomed, second: kept, id } = await fileInTwoAlbums();
    await shareWith(owner.id, doomed, collaborator.email, 'COLLABORATOR');
    const theirs = await file(collaborator.id, await album(collaborator.id));
    await collections.addFiles(ctx(), collaborator.id, 'photos', {
      collectionID: doomed,
      files: [fixtureKey(theirs.id)],
    });

    await collections.deleteCollection(ctx(), owner.id, doomed, false);
    const entries = await trashOf(owner.id);
    assert.deepEqual(
      entries.map((entry) => [entry.file.id, entry.file.collectionID, entry.isDeleted]),
      [[id, doomed, false]],
    );
    assert.deepEqual(await liveIn(owner.id, kept), [], 'a trashed file leaves every album');
    assert.deepEqual(await trashOf(collaborator.id), []);
    await restore(owner.id, kept, [id]);
    assert.deepEqual(await liveIn(owner.id, kept), [id]);
  });

  test('restore brings the file back into one collection; a file in the trash cannot be added or moved', async () => {
    const owner = await user();
    const [first, second] = [await album(owner.id), await album(owner.id)];
    const { id } = await file(owner.id, first);
    const { id: live } = await file(owner.id, first);
    await trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID: first }]);
    const [trashed] = await trashOf(owner.id);

    await refused(
      collections.addFiles(ctx(), owner.id, 'photos', { collectionID: second, files: [fixtureKey(id)] }),
      409,
      'FILE_IN_TRASH',
    );
    await refused(
      collections.moveFiles(ctx(), owner.id, {
        fromCollectionID: first,
        toCollectionID: second,
        files: [fixtureKey(id)],
      }),
      409,
      'FILE_IN_TRASH',
    );
    await refused(restore(owner.id, second, [live]), 400);
    assert.deepEqual(await liveIn(owner.id, second), []);

    await restore(owner.id, second, [id]);
    assert.deepEqual(await liveIn(owner.id, second), [id]);
    assert.deepEqual(await liveIn(owner.id, first), [live]);
    const [entry] = await trashOf(owner.id, trashed?.updatedAt);
    assert.equal(entry?.isRestored, true);
    assert.ok(entry.updatedAt > (trashed?.updatedAt ?? Infinity));
    await refused(restore(owner.id, second, [id]), 400);
    // Out of the trash it can go anywhere again, and back into the trash.
    await collections.addFiles(ctx(), owner.id, 'photos', { collectionID: first, files: [fixtureKey(id)] });
    await trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID: second }]);
    const [again] = await trashOf(owner.id, entry.updatedAt);
    assert.deepEqual([again?.isRestored, again?.file.collectionID], [false, second]);
  });

  test('delete for ever: storage drops, both objects go to the ledger, the entry is named without metadata', async () => {
    const owner = await user();
    const collectionID = await album(owner.id);
    const { id, objects } = await file(owner.id, collectionID, 1000);
    const { id: kept } = await file(owner.id, collectionID, 500);
    assert.equal((await storageOf(ctx(), owner.id)).usage, 1520);
    await trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID }]);
    // Trashed files still count, as in museum.
    assert.equal((await storageOf(ctx(), owner.id)).usage, 1520);

    assert.equal(await trash.deleteForEver(ctx(), owner.id, [id, kept, 999_999_999]), 1);
    assert.deepEqual(await storageOf(ctx(), owner.id), { usage: 510, fileCount: 1 });
    for (const key of [objects.file, objects.thumbnail])
      assert.equal((await ledgerRowOf(ctx().db, key))?.reason, 'deleted');
    const [entry] = await trashOf(owner.id);
    assert.equal(entry?.isDeleted, true);
    assert.deepEqual(entry.file.metadata, { decryptionHeader: '', size: 0 });
    assert.equal(entry.file.magicMetadata, undefined);
    assert.equal(await trash.deleteForEver(ctx(), owner.id, [id]), 0);
    await refused(restore(owner.id, collectionID, [id]), 404);
    assert.deepEqual(await liveIn(owner.id, collectionID), [kept]);
  });

  test('empty deletes what was trashed up to the time given, and nothing trashed later', async () => {
    const owner = await user();
    const collectionID = await album(owner.id);
    const [a, b, c] = [
      await file(owner.id, collectionID),
      await file(owner.id, collectionID),
      await file(owner.id, collectionID),
    ];
    await trash.trashFiles(ctx(), owner.id, [
      { fileID: a.id, collectionID },
      { fileID: b.id, collectionID },
    ]);
    const seenUntil = Math.max(...(await trashOf(owner.id)).map((entry) => entry.updatedAt));
    await trash.trashFiles(ctx(), owner.id, [{ fileID: c.id, collectionID }]);
    await trash.emptyTrash(ctx(), owner.id, 'photos', seenUntil);
    const states = new Map((await trashOf(owner.id)).map((entry) => [entry.file.id, entry.isDeleted]));
    assert.deepEqual([states.get(a.id), states.get(b.id), states.get(c.id)], [true, true, false]);
  });

  test('after 30 days the trash empties itself, once, however many processes run the job at the same time', async () => {
    const owner = await user();
    const collectionID = await album(owner.id);
    const files = await Promise.all([1, 2, 3, 4].map(() => file(owner.id, collectionID)));
    await trash.trashFiles(
      ctx(),
      owner.id,
      files.slice(0, 3).map((f) => ({ fileID: f.id, collectionID })),
    );
    testContext().clock.advance(trash.TRASH_LIFETIME_MICROS - MICROS_PER_DAY);
    const recent = files[3];
    assert.ok(recent);
    await trash.trashFiles(ctx(), owner.id, [{ fileID: recent.id, collectionID }]);
    // Another account's due files go too; the concurrent runs below must each delete a file once.
    testContext().clock.advance(2 * MICROS_PER_DAY);
    const runs = await Promise.all([trash.expireTrash(ctx()), trash.expireTrash(ctx()), trash.expireTrash(ctx())]);
    assert.ok(runs.reduce((sum, n) => sum + n, 0) >= 3);
    const states = new Map((await trashOf(owner.id)).map((entry) => [entry.file.id, entry.isDeleted]));
    assert.deepEqual(
      files.map((f) => states.get(f.id)),
      [true, true, true, false],
    );
    assert.equal((await storageOf(ctx(), owner.id)).fileCount, 1);
    assert.equal(await trash.expireTrash(ctx()), 0);
  });

  test('trash, restore, add, move, delete for ever and album deletion at once: refusals at most, never a deadlock', async () => {
    const owner = await user();
    const albums = [await album(owner.id), await album(owner.id), await album(owner.id), await album(owner.id)];
    const files = await Promise.all(Array.from({ length: 16 }, (_, n) => file(owner.id, albums[n % 2] ?? 0)));
    const operations = files.flatMap(({ id }, n) => {
      const [a = 0, b = 0, c = 0, d = 0] = n % 2 === 0 ? albums : [albums[1], albums[0], albums[3], albums[2]];
      return [
        () => collections.addFiles(ctx(), owner.id, 'photos', { collectionID: c, files: [fixtureKey(id)] }),
        () => trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID: a }]),
        () => restore(owner.id, d, [id]),
        () =>
          collections.moveFiles(ctx(), owner.id, { fromCollectionID: a, toCollectionID: b, files: [fixtureKey(id)] }),
        () => trash.deleteFromTrash(ctx(), owner.id, [id]),
      ];
    });
    const results = await Promise.allSettled([
      ...operations.map((operation) => operation()),
      collections.deleteCollection(ctx(), owner.id, albums[2] ?? 0, false),
      collections.deleteCollection(ctx(), owner.id, albums[3] ?? 0, false),
    ]);
    for (const result of results) {
      if (result.status === 'rejected') {
        const status = (result.reason as { status?: number }).status;
        assert.ok(status !== undefined && status < 500, String(result.reason));
      }
    }
  });

  test('the trash diff pages by 2,500 without splitting the 1,000 files one request trashed', async () => {
    const owner = await user();
    const collectionID = await album(owner.id);
    // 2,600 files written in one statement (the services would take a transaction each).
    const rows = await testContext().sql(`
      WITH made AS (
        INSERT INTO files (owner_id, file_object_key, file_decryption_header, file_size, thumbnail_object_key,
          thumbnail_decryption_header, thumbnail_size, encrypted_metadata, metadata_decryption_header, created_at,
          updation_time)
        SELECT ${String(owner.id)}, 'bulk/' || g || '/f', 'h', 1, 'bulk/' || g || '/t', 'h', 1, 'm', 'h', 1, 1
        FROM generate_series(1, 2600) AS g
        RETURNING file_id)
      INSERT INTO collection_files (collection_id, file_id, encrypted_key, key_decryption_nonce, c_owner_id,
        f_owner_id, created_at, updation_time)
      SELECT ${String(collectionID)}, file_id, 'k', 'n', ${String(owner.id)}, ${String(owner.id)}, 1, 1 FROM made
      RETURNING file_id`);
    const ids = (rows as { file_id: string }[]).map((row) => Number(row.file_id));
    for (const batch of [ids.slice(0, 1000), ids.slice(1000, 2000), ids.slice(2000)]) {
      await trash.trashFiles(
        ctx(),
        owner.id,
        batch.map((fileID) => ({ fileID, collectionID })),
      );
    }
    const first = await trash.trashDiff(ctx(), owner.id, 'photos', 0);
    assert.deepEqual([first.diff.length, first.hasMore], [2000, true]);
    const cursor = Math.max(...first.diff.map((entry) => entry.updatedAt));
    const second = await trash.trashDiff(ctx(), owner.id, 'photos', cursor);
    assert.deepEqual([second.diff.length, second.hasMore], [600, false]);
    assert.deepEqual(
      [...first.diff, ...second.diff].map((entry) => entry.file.id).sort((a, b) => a - b),
      ids.sort((a, b) => a - b),
    );
  });

  test('a page never splits one change: its rows wait for the next page, or make a page of their own', async () => {
    const row = (time: number) => ({ updation_time: time });
    const timeOf = (r: { updation_time: number }) => String(r.updation_time);
    const never = () => Promise.reject(new Error('not asked'));
    assert.deepEqual(await trash.pageWithoutSplitting([row(1), row(2)], 2, timeOf, never), {
      rows: [row(1), row(2)],
      hasMore: false,
    });
    assert.deepEqual(await trash.pageWithoutSplitting([row(1), row(2), row(2)], 2, timeOf, never), {
      rows: [row(1)],
      hasMore: true,
    });
    const whole = [row(5), row(5), row(5), row(5)];
    assert.deepEqual(await trash.pageWithoutSplitting(whole.slice(0, 3), 2, timeOf, () => Promise.resolve(whole)), {
      rows: whole,
      hasMore: true,
    });
  });

  test('concurrent trashing and restoring: readers polling with their cursors end with the true state', async () => {
    const owner = await user();
    const [first, second] = [await album(owner.id), await album(owner.id)];
    const files = await Promise.all(Array.from({ length: 12 }, () => file(owner.id, first)));
    const ids = files.map((f) => f.id);
    const trashState = new Map<number, boolean>();
    const secondState = new Map<number, boolean>();
    let trashCursor = 0;
    let secondCursor = 0;
    const poll = async () => {
      for (;;) {
        const page = await trash.trashDiff(ctx(), owner.id, 'photos', trashCursor);
        for (const entry of page.diff) trashState.set(entry.file.id, !entry.isDeleted && !entry.isRestored);
        trashCursor = Math.max(trashCursor, ...page.diff.map((entry) => entry.updatedAt));
        if (!page.hasMore) break;
      }
      const diff = await collectionDiff(ctx(), owner.id, second, secondCursor);
      for (const f of diff.diff) secondState.set(f.id, !f.isDeleted);
      secondCursor = Math.max(secondCursor, ...diff.diff.map((f) => f.updationTime));
    };
    const writers = { running: true };
    const reader = (async () => {
      while (writers.running) await poll();
    })();
    // Each file: trashed, restored into the second album, trashed again if its index is even.
    await Promise.all(
      ids.map(async (id, index) => {
        await trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID: first }]);
        await restore(owner.id, second, [id]);
        if (index % 2 === 0) await trash.trashFiles(ctx(), owner.id, [{ fileID: id, collectionID: second }]);
      }),
    );
    writers.running = false;
    await reader;
    await poll();
    assert.deepEqual(
      ids.map((id) => trashState.get(id)),
      ids.map((_, index) => index % 2 === 0),
    );
    assert.deepEqual(
      ids.map((id) => secondState.get(id)),
      ids.map((_, index) => index % 2 !== 0),
    );
  });
});
