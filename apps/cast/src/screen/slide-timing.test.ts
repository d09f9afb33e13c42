// The slide interval from the cast page's address: the default unless a sane `slideSeconds` is asked.
import { expect, test } from '@jest/globals';

import { SLIDE_MS, slideIntervalMs } from './slide-timing.ts';

test('slideSeconds sets the interval within 2 s to an hour; anything else leaves 10 s', () => {
  expect(SLIDE_MS).toBe(10_000);
  expect(slideIntervalMs('')).toBe(SLIDE_MS);
  expect(slideIntervalMs('?slideSeconds=2')).toBe(2000);
  expect(slideIntervalMs('?other=1&slideSeconds=2.5')).toBe(2500);
  expect(slideIntervalMs('?slideSeconds=3600')).toBe(3_600_000);
  for (const asked of ['1', '0', '-5', '3601', 'abc', '2e3', '', 'Infinity']) {
    expect(slideIntervalMs(`?slideSeconds=${asked}`)).toBe(SLIDE_MS);
  }
});
