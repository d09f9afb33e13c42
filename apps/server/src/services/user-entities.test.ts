// The user entity rules without HTTP: the quota (entities and bytes, every type together) holds against
// concurrent creates, updatedAt is unique and growing per user, a deleted smart album comes back under its id,
// and deleting the account deletes its keys and entities.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { UserEntityType } from '@ente/protocol';

import { HttpError } from '../http/errors.ts';
import { insertUser, suiteContext } from '../testing/context.ts';
import { refused } from '../testing/refusals.ts';
import type { Context } from './context.ts';
import {
  createUserEntity,
  createUserEntityKey,
  deleteUserEntity,
  updateUserEntity,
  userEntityDiff,
} from './user-entities.ts';

describe('user entity services', () => {
  const testContext = suiteContext({ USER_ENTITY_MAX_ENTITIES: '3', USER_ENTITY_MAX_BYTES: String(1024 * 1024) });
  let users = 0;
  const key = { encryptedKey: 'a2V5', header: 'aGVhZGVy' };
  const data = { encryptedData: 'ZGF0YQ==', header: 'aGVhZGVy' };

  async function userWithKeys(ctx: Context, types: readonly UserEntityType[] = ['location', 'cgroup']) {
    const userID = await insertUser(ctx, `user-entities-${++users}@example.org`);
    for (const type of types) await createUserEntityKey(ctx, userID, { type, ...key });
    return userID;
  }

  test('concurrent creates of two types cannot pass the entity quota together', async () => {
    const { ctx } = testContext();
    const userID = await userWithKeys(ctx);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        createUserEntity(ctx, userID, { type: i % 2 ? 'location' : 'cgroup', ...data }),
      ),
    );
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 3);
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      assert.ok(outcome.reason instanceof HttpError, String(outcome.reason));
      assert.deepEqual([outcome.reason.status, outcome.reason.body.code], [403, 'ENTITY_LIMIT_REACHED']);
    }
    const locations = await userEntityDiff(ctx, userID, { type: 'location', sinceTime: 0, limit: 10 });
    const people = await userEntityDiff(ctx, userID, { type: 'cgroup', sinceTime: 0, limit: 10 });
    const times = [...locations.diff, ...people.diff].map((entity) => entity.updatedAt);
    assert.equal(times.length, 3);
    assert.equal(new Set(times).size, 3, 'updatedAt is unique per user, across types');
  });

  test('the byte quota counts every type, only growth counts on update, and a delete frees its share', async () => {
    const { ctx } = testContext();
    const userID = await userWithKeys(ctx);
    const half = { encryptedData: 'A'.repeat(512 * 1024), header: 'aGVhZGVy' };
    const first = await createUserEntity(ctx, userID, { type: 'location', ...half });
    await refused(createUserEntity(ctx, userID, { type: 'cgroup', ...half }), 403, 'ENTITY_LIMIT_REACHED');
    const small = await createUserEntity(ctx, userID, { type: 'cgroup', ...data });
    await refused(
      updateUserEntity(ctx, userID, { id: small.id, type: 'cgroup', ...half }),
      403,
      'ENTITY_LIMIT_REACHED',
    );
    // Same size: passes although the account is close to its quota.
    await updateUserEntity(ctx, userID, { id: first.id, type: 'location', ...half });
    await deleteUserEntity(ctx, userID, first.id);
    await updateUserEntity(ctx, userID, { id: small.id, type: 'cgroup', ...half });
  });

  test('an update adds no entity: past a lowered entity quota it still grows, and only the bytes refuse it', async () => {
    const { ctx } = testContext();
    const userID = await userWithKeys(ctx);
    const first = await createUserEntity(ctx, userID, { type: 'location', ...data });
    await createUserEntity(ctx, userID, { type: 'cgroup', ...data });
    const lowered: Context = { ...ctx, config: { ...ctx.config, USER_ENTITY_MAX_ENTITIES: 1 } };
    await refused(createUserEntity(lowered, userID, { type: 'location', ...data }), 403, 'ENTITY_LIMIT_REACHED');
    const grown = { encryptedData: 'A'.repeat(1024), header: 'aGVhZGVy' };
    await updateUserEntity(lowered, userID, { id: first.id, type: 'location', ...grown });
    const tooLarge = { encryptedData: 'A'.repeat(1024 * 1024), header: 'aGVhZGVy' };
    await refused(
      updateUserEntity(lowered, userID, { id: first.id, type: 'location', ...tooLarge }),
      403,
      'ENTITY_LIMIT_REACHED',
    );
  });

  test('a deleted smart album comes back under its id; a live one, or another type, is 409', async () => {
    const { ctx } = testContext();
    const userID = await userWithKeys(ctx, ['smart_album', 'location']);
    const id = `sa_${String(userID)}_42`;
    const created = await createUserEntity(ctx, userID, { type: 'smart_album', id, ...data });
    await refused(createUserEntity(ctx, userID, { type: 'smart_album', id, ...data }), 409, 'ALREADY_EXISTS');
    await deleteUserEntity(ctx, userID, id);
    const restored = await createUserEntity(ctx, userID, {
      type: 'smart_album',
      id,
      encryptedData: 'bmV3',
      header: 'aGVhZA==',
    });
    assert.deepEqual(
      { ...restored, updatedAt: 0 },
      { ...created, encryptedData: 'bmV3', header: 'aGVhZA==', updatedAt: 0 },
    );
    assert.ok(restored.updatedAt > created.updatedAt);
    const location = await createUserEntity(ctx, userID, { type: 'location', ...data });
    await deleteUserEntity(ctx, userID, location.id);
    await refused(createUserEntity(ctx, userID, { type: 'location', id: location.id, ...data }), 409, 'ALREADY_EXISTS');
  });

  test("deleting the account deletes its keys and entities, and no other account's", async () => {
    const { ctx } = testContext();
    const sql = (statement: string) => testContext().sql(statement);
    const gone = await userWithKeys(ctx);
    const stays = await userWithKeys(ctx);
    await createUserEntity(ctx, gone, { type: 'location', ...data });
    await createUserEntity(ctx, stays, { type: 'location', ...data });
    await sql(`DELETE FROM users WHERE user_id = ${String(gone)}`);
    const count = async (table: string, userID: number) =>
      (await sql(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = ${String(userID)}`))[0];
    assert.deepEqual(await count('user_entity_key', gone), { n: 0 });
    assert.deepEqual(await count('user_entity_data', gone), { n: 0 });
    assert.deepEqual(await count('user_entity_key', stays), { n: 2 });
    assert.deepEqual(await count('user_entity_data', stays), { n: 1 });
  });
});
