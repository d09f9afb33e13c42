import { createTicker, packedPhase, unpackPhase } from './ticker.ts';

beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00.250Z') });
});
afterEach(() => {
  jest.useRealTimers();
});

test('one timer fires at each whole second of server time, only while someone listens', () => {
  const ticker = createTicker(0);
  const seen: number[] = [];
  const stop = ticker.subscribe(() => seen.push(ticker.now() % 1000));
  expect(jest.getTimerCount()).toBe(1);
  const second = ticker.subscribe(() => undefined);
  expect(jest.getTimerCount()).toBe(1);
  jest.advanceTimersByTime(3000);
  expect(seen).toHaveLength(3);
  // Just past each boundary.
  seen.forEach((ms) => expect(ms).toBeLessThan(5));
  stop();
  second();
  expect(jest.getTimerCount()).toBe(0);
});

test('the offset is added to the local clock and realigns the ticks', () => {
  const ticker = createTicker(0);
  const seen: number[] = [];
  ticker.subscribe(() => seen.push(ticker.now()));
  ticker.setOffset(1500);
  expect(ticker.now()).toBe(Date.now() + 1500);
  seen.length = 0;
  jest.advanceTimersByTime(1000);
  expect(seen).toHaveLength(1);
  expect(seen[0]! % 1000).toBeLessThan(5);
});

test('phase: the period index and the warning below 40 % of the period left', () => {
  const start = 1_000_000 * 30_000;
  expect(unpackPhase('totp', 30, packedPhase('totp', 30, start), start)).toEqual({
    step: 1_000_000,
    warn: false,
    elapsed: 0,
  });
  // 17 s gone: 13 s (43 %) left.
  expect(unpackPhase('totp', 30, packedPhase('totp', 30, start + 17_000), start + 17_000).warn).toBe(false);
  // 18 s gone: 12 s (40 %) left.
  const late = unpackPhase('totp', 30, packedPhase('totp', 30, start + 18_000), start + 18_000);
  expect(late).toEqual({ step: 1_000_000, warn: true, elapsed: 18 });
  expect(packedPhase('totp', 30, start + 30_000)).toBe(2_000_002);
  // HOTP never changes with time.
  expect(packedPhase('hotp', 30, start)).toBe(packedPhase('hotp', 30, start + 99_999));
  expect(unpackPhase('hotp', 30, 0, start)).toEqual({ step: 0, warn: false, elapsed: 0 });
});
