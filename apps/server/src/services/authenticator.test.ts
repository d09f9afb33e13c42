// The authenticator rules without HTTP: the quota holds against concurrent creates (counted under the key
// lock, in the writing transaction), updated_at grows with every write, compare-and-set refuses a stale
// ifUpdatedAt, and the diff pages by updated_at.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { HttpError } from '../http/errors.ts';
import { insertUserWithKeyAttributes, suiteContext } from '../testing/context.ts';
import {
  createAuthenticatorKey,
  createEntity,
  deleteEntity,
  entityDiff,
  knownEmptyDiff,
  updateEntity,
} from './authenticator.ts';
import type { Context } from './context.ts';

const refusedWith = (status: number, code?: string) => (error: unknown) =>
  error instanceof HttpError && error.status === status && (code === undefined || error.body.code === code);

describe('authenticator services', () => {
  const testContext = suiteContext({ AUTHENTICATOR_MAX_ENTITIES: '3' });
  let users = 0;

  async function userWithKey(ctx: Context) {
    const userID = await insertUserWithKeyAttributes(ctx, `authenticator-${++users}@example.org`);
    await createAuthenticatorKey(ctx, userID, { encryptedKey: 'a2V5', header: 'aGVhZGVy' });
    return userID;
  }
  const entity = { encryptedData: 'ZGF0YQ==', header: 'aGVhZGVy' };

  test('entities need a key (400), and a key is created once (409)', async () => {
    const { ctx } = testContext();
    const userID = await insertUserWithKeyAttributes(ctx, 'keyless@example.org');
    await assert.rejects(createEntity(ctx, userID, entity), refusedWith(400, 'AUTH_KEY_NOT_CREATED'));
    await createAuthenticatorKey(ctx, userID, { encryptedKey: 'a2V5', header: 'aGVhZGVy' });
    await assert.rejects(
      createAuthenticatorKey(ctx, userID, { encryptedKey: 'a2V5', header: 'aGVhZGVy' }),
      refusedWith(409),
    );
  });

  test('concurrent creates cannot pass the entity quota together', async () => {
    const { ctx } = testContext();
    const userID = await userWithKey(ctx);
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => createEntity(ctx, userID, entity)));
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 3);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') assert.ok(refusedWith(403, 'ENTITY_LIMIT_REACHED')(outcome.reason));
    }
    const { diff } = await entityDiff(ctx, userID, 0, 10);
    assert.equal(diff.length, 3);
    assert.equal(new Set(diff.map((row) => row.updatedAt)).size, 3);
  });

  test('compare-and-set: a stale ifUpdatedAt is refused (409); the diff sees each change once, in order', async () => {
    const { ctx } = testContext();
    const userID = await userWithKey(ctx);
    const created = await createEntity(ctx, userID, entity);
    await updateEntity(ctx, userID, { id: created.id, ...entity, ifUpdatedAt: created.updatedAt });
    await assert.rejects(
      updateEntity(ctx, userID, { id: created.id, ...entity, ifUpdatedAt: created.updatedAt }),
      refusedWith(409, 'CONFLICT'),
    );
    await assert.rejects(
      deleteEntity(ctx, userID, { id: created.id, ifUpdatedAt: created.updatedAt }),
      refusedWith(409),
    );
    const [updated] = (await entityDiff(ctx, userID, created.updatedAt, 10)).diff;
    assert.ok(updated && updated.updatedAt > created.updatedAt);
    await deleteEntity(ctx, userID, { id: created.id });
    const [deleted] = (await entityDiff(ctx, userID, updated.updatedAt, 10)).diff;
    assert.deepEqual([deleted?.isDeleted, deleted?.encryptedData], [true, null]);
    // A whole page taught the cache that nothing is newer: the next poll is answered from memory. On
    // PostgreSQL this process also hears its own writes' invalidations (LISTEN), which may land after a poll
    // and empty the cache again; a poll after the last of them must teach it.
    const since = deleted?.updatedAt ?? 0;
    let learned: unknown;
    for (let poll = 0; poll < 40 && learned === undefined; poll++) {
      if (poll > 0) await new Promise((resolve) => setTimeout(resolve, 25));
      assert.deepEqual((await entityDiff(ctx, userID, since, 10)).diff, []);
      learned = knownEmptyDiff(ctx, userID, since)?.diff;
    }
    assert.deepEqual(learned, []);
  });
});
