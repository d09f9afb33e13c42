// The object ledger without HTTP: only the uploader confirms, only while unconfirmed and not due, all
// keys or none; the sweep removes the objects of unconfirmed uploads (their multipart uploads too) and of
// deleted files, and nothing else; two sweeps at once never handle one object twice; a failed removal
// is retried after the lease. The sweep on an S3 store runs against s3rver (single objects: s3rver has
// no AbortMultipartUpload, so aborting is shown on the embedded store).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';

import type { ObjectStore } from '../adapters/object-store/object-store.ts';
import { ledgerRowOf } from '../db/object-ledger.ts';
import { suiteContext } from '../testing/context.ts';
import { suiteEmbeddedStore, suiteS3Store } from '../testing/object-stores.ts';
import {
  confirmObjects,
  newObjectKey,
  recordPendingUpload,
  scheduleDeletion,
  SWEEP_LEASE_MICROS,
  sweepObjects,
  UNCONFIRMED_OBJECT_LIFETIME_MICROS,
} from './object-ledger.ts';

describe('object ledger', () => {
  const testContext = suiteContext();
  const embeddedStore = suiteEmbeddedStore();
  let nextUser = 1000;

  async function put(key: string, body = Buffer.from(`body of ${key}`)) {
    const md5 = createHash('md5').update(body).digest('base64');
    const result = await embeddedStore().receive(
      { method: 'PUT', key, length: body.length, md5 },
      Readable.from([body]),
    );
    assert.ok(!('error' in result), JSON.stringify(result));
  }
  async function pending(userID: number, uploadId?: string) {
    const { ctx } = testContext();
    const key = newObjectKey(userID);
    await recordPendingUpload(ctx, ctx.db, { userID, objectKey: key, uploadId });
    return key;
  }
  const exists = async (key: string) => (await embeddedStore().head(key)) !== undefined;
  const inLedger = async (key: string) => (await ledgerRowOf(testContext().ctx.db, key)) !== undefined;
  /** Moves the clock past every unconfirmed object's lifetime and every lease. */
  const makeEverythingDue = () => testContext().clock.advance(UNCONFIRMED_OBJECT_LIFETIME_MICROS + SWEEP_LEASE_MICROS);

  test('keys are "<userID>/<uuid>", new each time', () => {
    const key = newObjectKey(42);
    assert.match(key, /^42\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(newObjectKey(42), key);
  });

  test('the uploader confirms its objects once: their rows go, a second confirmation is false', async () => {
    const { ctx } = testContext();
    const userID = nextUser++;
    const [file, thumbnail] = [await pending(userID), await pending(userID)];
    assert.equal(await ctx.db.transaction().execute((tx) => confirmObjects(ctx, tx, userID, [file, thumbnail])), true);
    assert.equal(await inLedger(file), false);
    assert.equal(await inLedger(thumbnail), false);
    assert.equal(await confirmObjects(ctx, ctx.db, userID, [file, thumbnail]), false);
  });

  test('another account, an unknown key or any bad key among good ones: false, and nothing changes', async () => {
    const { ctx } = testContext();
    const [owner, other] = [nextUser++, nextUser++];
    const mine = await pending(owner);
    const theirs = await pending(other);
    assert.equal(await confirmObjects(ctx, ctx.db, owner, [theirs]), false);
    assert.equal(await confirmObjects(ctx, ctx.db, owner, [mine, theirs]), false);
    assert.equal(await confirmObjects(ctx, ctx.db, owner, [mine, newObjectKey(owner)]), false);
    assert.equal(await confirmObjects(ctx, ctx.db, owner, []), false);
    assert.equal(await inLedger(mine), true);
    assert.equal(await inLedger(theirs), true);
    assert.equal(await confirmObjects(ctx, ctx.db, owner, [mine]), true);
    assert.equal(await confirmObjects(ctx, ctx.db, other, [theirs]), true);
  });

  test('an object past its lifetime, or one scheduled for deletion, cannot be confirmed', async () => {
    const { ctx, clock } = testContext();
    const userID = nextUser++;
    const late = await pending(userID);
    const deleted = await pending(userID);
    await scheduleDeletion(ctx, ctx.db, [deleted]);
    assert.equal(await confirmObjects(ctx, ctx.db, userID, [deleted]), false);
    clock.advance(UNCONFIRMED_OBJECT_LIFETIME_MICROS);
    assert.equal(await confirmObjects(ctx, ctx.db, userID, [late]), false);
    assert.equal(await inLedger(late), true);
  });

  test('a rolled-back confirmation leaves the objects unconfirmed', async () => {
    const { ctx } = testContext();
    const userID = nextUser++;
    const key = await pending(userID);
    await assert.rejects(
      ctx.db.transaction().execute(async (tx) => {
        assert.equal(await confirmObjects(ctx, tx, userID, [key]), true);
        throw new Error('the file insert failed');
      }),
      /the file insert failed/,
    );
    assert.equal(await inLedger(key), true);
  });

  test('two concurrent confirmations of the same keys: exactly one succeeds', async () => {
    const { ctx } = testContext();
    const userID = nextUser++;
    const keys = [await pending(userID), await pending(userID)];
    const confirm = () => ctx.db.transaction().execute((tx) => confirmObjects(ctx, tx, userID, keys));
    const results = await Promise.all([confirm(), confirm(), confirm()]);
    assert.deepEqual(results.filter(Boolean).length, 1);
  });

  test('the sweep removes unconfirmed and deleted objects, and nothing else', async () => {
    const { ctx, clock } = testContext();
    const userID = nextUser++;
    // Removed: an unconfirmed upload, an unconfirmed multipart upload (with a part), a deleted file's object.
    const unconfirmed = await pending(userID);
    await put(unconfirmed);
    const multipartKey = newObjectKey(userID);
    const uploadId = await embeddedStore().createMultipartUpload(multipartKey);
    await recordPendingUpload(ctx, ctx.db, { userID, objectKey: multipartKey, uploadId });
    const part = Buffer.from('part one');
    const partMd5 = createHash('md5').update(part).digest('base64');
    const signedPart = { method: 'PUT' as const, key: multipartKey, length: part.length, md5: partMd5 };
    assert.ok(
      !(
        'error' in
        (await embeddedStore().receive({ ...signedPart, uploadId, partNumber: 1, offset: 0 }, Readable.from([part])))
      ),
    );
    // Kept: a confirmed object, an object the ledger never heard of, and a younger unconfirmed one.
    const confirmed = await pending(userID);
    await put(confirmed);
    assert.equal(await confirmObjects(ctx, ctx.db, userID, [confirmed]), true);
    const unknown = `other-prefix/${newObjectKey(userID)}`;
    await put(unknown);
    const deleted = newObjectKey(userID);
    await put(deleted);

    clock.advance(UNCONFIRMED_OBJECT_LIFETIME_MICROS);
    const young = await pending(userID);
    await put(young);
    await scheduleDeletion(ctx, ctx.db, [deleted]);

    const result = await sweepObjects(ctx, embeddedStore());
    assert.deepEqual(result.failed, []);
    assert.ok([unconfirmed, multipartKey, deleted].every((key) => result.removed.includes(key)));
    assert.ok(![confirmed, unknown, young].some((key) => result.removed.includes(key)));
    for (const key of [unconfirmed, deleted]) assert.equal(await exists(key), false, key);
    for (const key of [unconfirmed, multipartKey, deleted]) assert.equal(await inLedger(key), false, key);
    const uploads = [];
    for await (const upload of embeddedStore().listMultipartUploads()) uploads.push(upload.uploadId);
    assert.ok(!uploads.includes(uploadId), 'the multipart upload is aborted');
    for (const key of [confirmed, unknown, young]) assert.equal(await exists(key), true, key);
    assert.equal(await inLedger(young), true);
    // A deleted object that is already gone is not an error the next time.
    await scheduleDeletion(ctx, ctx.db, [deleted]);
    assert.deepEqual((await sweepObjects(ctx, embeddedStore())).removed, [deleted]);
  });

  test('two sweeps at once claim disjoint rows: every object removed exactly once', async () => {
    const { ctx } = testContext();
    makeEverythingDue();
    await sweepObjects(ctx, embeddedStore());
    const userID = nextUser++;
    const keys: string[] = [];
    for (let i = 0; i < 250; i++) keys.push(newObjectKey(userID));
    await ctx.db.transaction().execute((tx) => scheduleDeletion(ctx, tx, keys));
    const deletions: string[] = [];
    const counting: ObjectStore = Object.assign(Object.create(embeddedStore()) as ObjectStore, {
      async delete(key: string) {
        deletions.push(key);
        await new Promise((resolve) => setTimeout(resolve, 1));
      },
    });
    const [first, second] = await Promise.all([sweepObjects(ctx, counting), sweepObjects(ctx, counting)]);
    assert.equal(deletions.length, keys.length);
    assert.deepEqual(new Set(deletions), new Set(keys));
    assert.equal(first.removed.length + second.removed.length, keys.length);
  });

  test('a failed removal keeps its row, claimed: retried once the lease has passed', async () => {
    const { ctx, clock } = testContext();
    makeEverythingDue();
    await sweepObjects(ctx, embeddedStore());
    const key = newObjectKey(nextUser++);
    await put(key);
    await scheduleDeletion(ctx, ctx.db, [key]);
    const failing: ObjectStore = Object.assign(Object.create(embeddedStore()) as ObjectStore, {
      delete: () => Promise.reject(new Error('store unreachable')),
    });
    assert.deepEqual(await sweepObjects(ctx, failing), { removed: [], failed: [key] });
    assert.equal((await ledgerRowOf(ctx.db, key))?.claims, 1);
    assert.deepEqual(await sweepObjects(ctx, embeddedStore()), { removed: [], failed: [] }, 'leased: not yet');
    clock.advance(SWEEP_LEASE_MICROS);
    assert.deepEqual(await sweepObjects(ctx, embeddedStore()), { removed: [key], failed: [] });
    assert.equal(await exists(key), false);
  });

  test('an unconfirmed object claimed by a sweep can no longer be confirmed', async () => {
    const { ctx } = testContext();
    const userID = nextUser++;
    const key = await pending(userID);
    makeEverythingDue();
    const failing: ObjectStore = Object.assign(Object.create(embeddedStore()) as ObjectStore, {
      delete: () => Promise.reject(new Error('store unreachable')),
    });
    assert.ok((await sweepObjects(ctx, failing)).failed.includes(key));
    // The row is leased into the future, yet a sweep holds it: confirming now would race its removal.
    assert.equal(await confirmObjects(ctx, ctx.db, userID, [key]), false);
  });
});

describe('object ledger sweep on an S3 store (s3rver)', () => {
  const testContext = suiteContext();
  const s3 = suiteS3Store();
  const store = () => s3().store;

  async function put(key: string) {
    const body = Buffer.from(`body of ${key}`);
    const md5 = createHash('md5').update(body).digest('base64');
    const url = await store().presignPut(key, { length: body.length, md5, expiresInSeconds: 600 });
    assert.equal((await fetch(url, { method: 'PUT', body, headers: { 'content-md5': md5 } })).status, 200);
  }

  test('unconfirmed and deleted objects leave the bucket; a confirmed one and an unknown one stay', async () => {
    const { ctx, clock } = testContext();
    const userID = 7;
    const [unconfirmed, confirmed, deleted] = [newObjectKey(userID), newObjectKey(userID), newObjectKey(userID)];
    for (const key of [unconfirmed, confirmed]) await recordPendingUpload(ctx, ctx.db, { userID, objectKey: key });
    const unknown = `other-prefix/${newObjectKey(userID)}`;
    for (const key of [unconfirmed, confirmed, deleted, unknown]) await put(key);
    assert.equal(await confirmObjects(ctx, ctx.db, userID, [confirmed]), true);
    await scheduleDeletion(ctx, ctx.db, [deleted]);
    assert.deepEqual(await sweepObjects(ctx, store()), { removed: [deleted], failed: [] });
    clock.advance(UNCONFIRMED_OBJECT_LIFETIME_MICROS);
    assert.deepEqual(await sweepObjects(ctx, store()), { removed: [unconfirmed], failed: [] });
    const left = [];
    for await (const object of store().list()) left.push(object.key);
    assert.deepEqual(left.sort(), [confirmed, unknown].sort());
  });
});
