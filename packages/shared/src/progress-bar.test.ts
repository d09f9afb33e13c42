// The bar itself, in the DOM: shown at 8 % with no ARIA role, creeping on while it runs without reaching the end,
// filled, faded and removed when done, and shown again when started during its fade.
import { progressBar, progressBarID } from './progress-bar.ts';

const root = () => document.getElementById(progressBarID);
const bar = () => root()?.querySelector<HTMLElement>('.bar');
/** How far the bar reaches, as a fraction of the width (its translate3d). */
function reach(): number {
  const match = /translate3d\((-?[\d.]+)%/.exec(bar()?.style.transform ?? '');
  if (!match) throw new Error('the bar is not placed');
  return 1 + Number(match[1]) / 100;
}

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  progressBar.done();
  jest.runOnlyPendingTimers();
  jest.runOnlyPendingTimers();
  jest.useRealTimers();
});

test('starting shows the bar at 8 %, decorative (no role), with its peg', () => {
  progressBar.start();
  expect(root()).not.toBeNull();
  expect(root()?.querySelector('[role]')).toBeNull();
  expect(bar()?.querySelector('.peg')).not.toBeNull();
  expect(reach()).toBeCloseTo(0.08);
  expect(root()?.style.opacity).toBe('1');
});

test('a running bar creeps on but never reaches the end; starting it again changes nothing', () => {
  progressBar.start();
  jest.advanceTimersByTime(800 * 5);
  const crept = reach();
  expect(crept).toBeGreaterThanOrEqual(0.08);
  progressBar.start();
  expect(reach()).toBe(crept);
  jest.advanceTimersByTime(800 * 2000);
  expect(reach()).toBeLessThan(1);
  expect(document.querySelectorAll(`#${progressBarID}`)).toHaveLength(1);
});

test('done fills the bar, fades it out and removes it', () => {
  progressBar.start();
  progressBar.done();
  expect(reach()).toBe(1);
  jest.advanceTimersByTime(200);
  expect(root()?.style.opacity).toBe('0');
  jest.advanceTimersByTime(200);
  expect(root()).toBeNull();
});

test('started again while it fades, the bar stays and starts over', () => {
  progressBar.start();
  progressBar.done();
  jest.advanceTimersByTime(250);
  progressBar.start();
  jest.advanceTimersByTime(1000);
  expect(root()).not.toBeNull();
  expect(root()?.style.opacity).toBe('1');
  expect(reach()).toBeLessThan(1);
});

test('done without a start does nothing', () => {
  progressBar.done();
  jest.advanceTimersByTime(1000);
  expect(root()).toBeNull();
});
