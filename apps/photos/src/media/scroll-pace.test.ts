/** @jest-environment node */
// The scroll's pace (scroll-pace.ts): a steady scroll faster than HOLD_SCREENS_PER_SECOND holds fetches once its events
// span PACE_MIN_SPAN_MS; a single jump after stillness and a slower scroll never hold, even when the scroll events of
// a steady scroll run early or late in their frames; a held pace lets go (and calls each listener once) when the scroll
// slows under the hold pace (a steady scroll that one late frame pushed over it is not held to its end) or stays still
// for QUIET_MS; a listener added while nothing is held is called at once (in a microtask), and one unsubscribed is
// never called.
import { afterEach, beforeEach, expect, jest, test } from '@jest/globals';

import { HOLD_SCREENS_PER_SECOND, PACE_MIN_SPAN_MS, QUIET_MS, ScrollPace } from './scroll-pace.ts';

const height = 800;
/**
 * Scroll events a frame (16 ms) apart at `screensPerSecond`, from `y` at `at`, each run `jitter(frame)` ms from its
 * frame's time (the position is the frame's); the last position and frame time.
 */
function scroll(
  pace: ScrollPace,
  screensPerSecond: number,
  frames: number,
  y = 0,
  at = 1000,
  jitter = (_frame: number) => 0,
) {
  for (let frame = 0; frame < frames; frame++) {
    y += (screensPerSecond * height * 16) / 1000;
    at += 16;
    pace.scrolled(y, at + jitter(frame), height);
  }
  return { y, at };
}

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
});

test('a steady scroll above the hold pace holds once its events span enough time; one below it never does', () => {
  const fast = new ScrollPace();
  const frames = Math.ceil(PACE_MIN_SPAN_MS / 16);
  const { y, at } = scroll(fast, HOLD_SCREENS_PER_SECOND + 0.5, frames);
  expect(fast.held).toBe(false);
  scroll(fast, HOLD_SCREENS_PER_SECOND + 0.5, 1, y, at);
  expect(fast.held).toBe(true);

  const slow = new ScrollPace();
  scroll(slow, HOLD_SCREENS_PER_SECOND - 0.2, 100);
  expect(slow.held).toBe(false);
});

test('a steady scroll under the hold pace whose events run early or late in their frames does not hold', () => {
  const pace = new ScrollPace();
  // Every other event 6 ms late: each frame's own distance over its own time swings between 0.7 and 1.6 times the pace.
  scroll(pace, 1.5, 300, 0, 1000, (frame) => (frame % 2) * 6);
  expect(pace.held).toBe(false);
});

test('a single jump after stillness does not hold (Page Down, a link to a day)', () => {
  const pace = new ScrollPace();
  pace.scrolled(0, 1000, height);
  pace.scrolled(height, 1000 + QUIET_MS + 1, height);
  expect(pace.held).toBe(false);
  pace.scrolled(10 * height, 2000, height);
  expect(pace.held).toBe(false);
});

test('held, it lets go when the scroll slows down, calling each listener once', () => {
  const pace = new ScrollPace();
  const { y, at } = scroll(pace, 5, 30);
  expect(pace.held).toBe(true);
  const resumed = jest.fn();
  pace.whenResumed(resumed);
  const still = scroll(pace, HOLD_SCREENS_PER_SECOND + 0.5, 10, y, at);
  expect(pace.held).toBe(true);
  expect(resumed).not.toHaveBeenCalled();
  scroll(pace, HOLD_SCREENS_PER_SECOND - 0.5, 15, still.y, still.at);
  expect(pace.held).toBe(false);
  expect(resumed).toHaveBeenCalledTimes(1);
  jest.advanceTimersByTime(QUIET_MS * 2);
  scroll(pace, 5, 30, still.y, still.at + 1000);
  jest.advanceTimersByTime(QUIET_MS);
  expect(resumed).toHaveBeenCalledTimes(1);
});

test('a steady scroll under the hold pace that one late event pushed over it is held for a moment only', () => {
  const pace = new ScrollPace();
  const screensPerSecond = HOLD_SCREENS_PER_SECOND - 0.5;
  const frameDistance = (screensPerSecond * height * 16) / 1000;
  const before = scroll(pace, screensPerSecond, 30);
  // Two events bunched with the distance of many frames, as a page that caught up after a long task.
  const after = { y: before.y + 12 * frameDistance, at: before.at + 32 };
  pace.scrolled(before.y + 2 * frameDistance, before.at + 16, height);
  pace.scrolled(after.y, after.at, height);
  expect(pace.held).toBe(true);
  scroll(pace, screensPerSecond, 15, after.y, after.at);
  expect(pace.held).toBe(false);
});

test('held, it lets go once the scroll has been still for QUIET_MS', () => {
  const pace = new ScrollPace();
  scroll(pace, 5, 30);
  const resumed = jest.fn();
  pace.whenResumed(resumed);
  jest.advanceTimersByTime(QUIET_MS - 1);
  expect(pace.held).toBe(true);
  jest.advanceTimersByTime(1);
  expect(pace.held).toBe(false);
  expect(resumed).toHaveBeenCalledTimes(1);
});

test('a listener added while nothing is held is called in a microtask; an unsubscribed one never', async () => {
  const pace = new ScrollPace();
  const now = jest.fn();
  pace.whenResumed(now);
  expect(now).not.toHaveBeenCalled();
  await Promise.resolve();
  expect(now).toHaveBeenCalledTimes(1);

  scroll(pace, 5, 30);
  const gone = jest.fn();
  const stop = pace.whenResumed(gone);
  stop();
  jest.advanceTimersByTime(QUIET_MS);
  await Promise.resolve();
  expect(pace.held).toBe(false);
  expect(gone).not.toHaveBeenCalled();
});
