/** @jest-environment node */
// The bounded object-URL cache (object-url-lru.ts): recency, eviction revokes, replacement revokes, clear.
import { expect, test } from '@jest/globals';

import { ObjectUrlLru } from './object-url-lru.ts';

test('keeps the most recently used up to its bound and revokes what it drops', () => {
  const revoked: string[] = [];
  const lru = new ObjectUrlLru(2, (url) => revoked.push(url));
  lru.set('a', 'blob:a');
  lru.set('b', 'blob:b');
  expect(lru.get('a')).toBe('blob:a'); // a is now the most recent
  lru.set('c', 'blob:c');
  expect(revoked).toEqual(['blob:b']);
  expect(lru.get('b')).toBeUndefined();
  expect(lru.size).toBe(2);
  lru.set('a', 'blob:a2');
  expect(revoked).toEqual(['blob:b', 'blob:a']);
  lru.set('a', 'blob:a2');
  expect(revoked).toEqual(['blob:b', 'blob:a']);
  lru.clear();
  expect(revoked.sort()).toEqual(['blob:a', 'blob:a2', 'blob:b', 'blob:c']);
  expect(lru.size).toBe(0);
});
