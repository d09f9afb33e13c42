// The cache's rules (See: [Note: Cache invalidation]): a read that raced an invalidation never stores
// its result, clear() and disabling forget everything, bounds only ever tighten, and entries expire
// after the TTL on the app's clock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ManualClock, MICROS_PER_SECOND } from '../lib/clock.ts';
import { SyncCache } from './cache.ts';

const TTL_SECONDS = 30;
const token = { userID: 7, app: 'auth', lastUsedAt: 1 };

function cacheWithClock(ttlSeconds = TTL_SECONDS) {
  const clock = new ManualClock();
  return { cache: new SyncCache({ clock, ttlSeconds }), clock };
}

describe('tokens', () => {
  test('a token read that raced an invalidation is not stored', () => {
    const { cache } = cacheWithClock();
    const generation = cache.tokensGeneration();
    cache.invalidate('tokens', 7); // a logout committed while the read was in flight
    cache.putToken('hash', token, generation);
    assert.equal(cache.token('hash'), undefined);
  });

  test('a token read with the current generation is stored', () => {
    const { cache } = cacheWithClock();
    cache.putToken('hash', token, cache.tokensGeneration());
    assert.deepEqual(cache.token('hash'), token);
  });

  test("invalidating a user drops that user's tokens", () => {
    const { cache } = cacheWithClock();
    cache.putToken('hash', token, cache.tokensGeneration());
    cache.invalidate('tokens', 7);
    assert.equal(cache.token('hash'), undefined);
  });

  test('a token is kept for the TTL and dropped after it', () => {
    const { cache, clock } = cacheWithClock();
    cache.putToken('hash', token, cache.tokensGeneration());
    clock.advance(TTL_SECONDS * MICROS_PER_SECOND);
    assert.deepEqual(cache.token('hash'), token);
    clock.advance(1);
    assert.equal(cache.token('hash'), undefined);
  });
});

describe('entity bounds', () => {
  test('a bound read that raced an invalidation is not stored', () => {
    const { cache } = cacheWithClock();
    const stale = cache.entitiesGeneration(1);
    cache.invalidate('entities', 1);
    cache.putLatestEntityTime(1, 100, stale);
    assert.equal(cache.latestEntityTime(1), undefined);
  });

  test('the tighter bound wins', () => {
    const { cache } = cacheWithClock();
    cache.putLatestEntityTime(1, 100, cache.entitiesGeneration(1));
    cache.putLatestEntityTime(1, 150, cache.entitiesGeneration(1));
    assert.equal(cache.latestEntityTime(1), 100);
    cache.putLatestEntityTime(1, 90, cache.entitiesGeneration(1));
    assert.equal(cache.latestEntityTime(1), 90);
  });

  test("invalidating a user forgets that user's bound only", () => {
    const { cache } = cacheWithClock();
    cache.putLatestEntityTime(1, 90, cache.entitiesGeneration(1));
    cache.invalidate('entities', 2);
    assert.equal(cache.latestEntityTime(1), 90);
    cache.invalidate('entities', 1);
    assert.equal(cache.latestEntityTime(1), undefined);
  });

  test('a bound is kept for the TTL and dropped after it', () => {
    const { cache, clock } = cacheWithClock();
    cache.putLatestEntityTime(1, 100, cache.entitiesGeneration(1));
    clock.advance(TTL_SECONDS * MICROS_PER_SECOND);
    assert.equal(cache.latestEntityTime(1), 100);
    clock.advance(1);
    assert.equal(cache.latestEntityTime(1), undefined);
  });

  test('an expired bound does not keep a looser new one out', () => {
    const { cache, clock } = cacheWithClock();
    cache.putLatestEntityTime(1, 100, cache.entitiesGeneration(1));
    clock.advance(TTL_SECONDS * MICROS_PER_SECOND + 1);
    cache.putLatestEntityTime(1, 150, cache.entitiesGeneration(1));
    assert.equal(cache.latestEntityTime(1), 150);
  });
});

describe('clear and off', () => {
  test('clear() outdates every generation handed out before it', () => {
    const { cache } = cacheWithClock();
    const generation = cache.entitiesGeneration(3);
    cache.clear();
    cache.putLatestEntityTime(3, 5, generation);
    assert.equal(cache.latestEntityTime(3), undefined);
  });

  test('a disabled cache stores nothing', () => {
    const { cache } = cacheWithClock();
    cache.setEnabled(false);
    cache.putLatestEntityTime(3, 5, cache.entitiesGeneration(3));
    assert.equal(cache.latestEntityTime(3), undefined);
  });

  test('a zero TTL keeps the cache off even when enabled', () => {
    const { cache } = cacheWithClock(0);
    cache.setEnabled(true);
    cache.putToken('h', token, cache.tokensGeneration());
    assert.equal(cache.token('h'), undefined);
  });
});
