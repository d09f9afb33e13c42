// The cache's safety rules (See: [Note: Cache invalidation]): a read that raced an invalidation never
// stores its result, clear() and disabling forget everything, bounds only ever tighten.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SyncCache } from './cache.ts';

test('a token read that raced an invalidation is not stored', () => {
  const cache = new SyncCache();
  const generation = cache.tokensGeneration();
  cache.invalidate('tokens', 7); // a logout committed while the read was in flight
  cache.putToken('hash', { userID: 7, app: 'auth', lastUsedAt: 1 }, generation);
  assert.equal(cache.token('hash'), undefined);
  cache.putToken('hash', { userID: 7, app: 'auth', lastUsedAt: 1 }, cache.tokensGeneration());
  assert.deepEqual(cache.token('hash'), { userID: 7, app: 'auth', lastUsedAt: 1 });
  cache.invalidate('tokens', 7);
  assert.equal(cache.token('hash'), undefined, "invalidating a user drops that user's tokens");
});

test('entity bounds: stale reads are dropped, the tighter bound wins, invalidation forgets', () => {
  const cache = new SyncCache();
  const stale = cache.entitiesGeneration(1);
  cache.invalidate('entities', 1);
  cache.putLatestEntityTime(1, 100, stale);
  assert.equal(cache.latestEntityTime(1), undefined);
  cache.putLatestEntityTime(1, 100, cache.entitiesGeneration(1));
  cache.putLatestEntityTime(1, 150, cache.entitiesGeneration(1));
  assert.equal(cache.latestEntityTime(1), 100);
  cache.putLatestEntityTime(1, 90, cache.entitiesGeneration(1));
  assert.equal(cache.latestEntityTime(1), 90);
  cache.invalidate('entities', 2);
  assert.equal(cache.latestEntityTime(1), 90, 'other users are untouched');
  cache.invalidate('entities', 1);
  assert.equal(cache.latestEntityTime(1), undefined);
});

test('clear() outdates every generation; disabled or zero-TTL caches store nothing', () => {
  const cache = new SyncCache();
  const generation = cache.entitiesGeneration(3);
  cache.clear();
  cache.putLatestEntityTime(3, 5, generation);
  assert.equal(cache.latestEntityTime(3), undefined);
  cache.setEnabled(false);
  cache.putLatestEntityTime(3, 5, cache.entitiesGeneration(3));
  assert.equal(cache.latestEntityTime(3), undefined);
  const off = new SyncCache({ ttlMs: 0 });
  off.setEnabled(true);
  off.putToken('h', { userID: 1, app: 'auth', lastUsedAt: 1 }, off.tokensGeneration());
  assert.equal(off.token('h'), undefined);
});
