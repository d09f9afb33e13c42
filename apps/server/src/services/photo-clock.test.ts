// The photos clocks (services/photo-clock.ts): a change's time is past the last time of everyone who sees
// it, and concurrent writers to one user are stamped one after another.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { insertUser, suiteContext } from '../testing/context.ts';
import { stampChange } from './photo-clock.ts';

describe('photo clock', () => {
  const context = suiteContext();
  let n = 0;
  const newUser = () => insertUser(context().ctx, `clock-${String(++n)}-${String(Date.now())}@example.org`);
  const stamp = (users: number[]) =>
    context()
      .ctx.db.transaction()
      .execute((tx) => stampChange(tx, users));

  test('a time passes the last time of every user who sees the change, even one ahead of the clock', async () => {
    const [a, b] = [await newUser(), await newUser()];
    await stamp([b]);
    const first = await stamp([a]);
    assert.ok(Math.abs(first - Date.now() * 1000) < 60_000_000, 'near the real time');
    const ahead = first + 3_600_000_000;
    await context().sql(`UPDATE photo_clocks SET last_time = ${String(ahead)} WHERE user_id = ${String(b)}`);
    assert.equal(await stamp([a, b]), ahead + 1);
    assert.equal(await stamp([a]), ahead + 2, 'a saw ahead + 1, so its next change comes after');
  });

  test('concurrent changes seen by overlapping users get distinct, increasing times per user', async () => {
    const users = [await newUser(), await newUser(), await newUser()];
    const sets = Array.from({ length: 30 }, (_, i) => [users[i % 3] ?? 0, users[(i + 1) % 3] ?? 0]);
    const times = await Promise.all(sets.map((set) => stamp(set)));
    for (const user of users) {
      const seen = times.filter((_, i) => sets[i]?.includes(user));
      assert.equal(new Set(seen).size, seen.length, 'no two changes of one user share a time');
    }
    const [row] = (await context().sql(
      `SELECT max(last_time) AS max FROM photo_clocks WHERE user_id IN (${users.join(',')})`,
    )) as { max: string }[];
    assert.equal(Number(row?.max), Math.max(...times));
  });

  test('a second writer to a user waits for the first to commit, then stamps past it', async () => {
    const user = await newUser();
    await stamp([user]);
    const ahead = Date.now() * 1000 + 3_600_000_000;
    await context().sql(`UPDATE photo_clocks SET last_time = ${String(ahead)} WHERE user_id = ${String(user)}`);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const times: number[] = [];
    const first = context()
      .ctx.db.transaction()
      .execute(async (tx) => {
        times.push(await stampChange(tx, [user]));
        await held;
      });
    while (times.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = stamp([user]).then((time) => times.push(time));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(times.length, 1, 'the second writer waits for the lock of the first');
    release();
    await Promise.all([first, second]);
    assert.deepEqual(times, [ahead + 1, ahead + 2], 'it read the time the first one committed');
  });

  test('a change seen by nobody is a programming error', async () => {
    await assert.rejects(stamp([]), /seen by nobody/);
  });
});
