// Each test loads when-idle.ts afresh: whether the user has interacted is page state.
import type * as WhenIdleModule from './when-idle.ts';

let whenIdle: typeof WhenIdleModule.whenIdle;

beforeEach(() => {
  jest.useFakeTimers();
  jest.isolateModules(() => {
    ({ whenIdle } = jest.requireActual<typeof WhenIdleModule>('./when-idle.ts'));
  });
});

afterEach(() => {
  jest.useRealTimers();
});

// jsdom has no requestIdleCallback: "idle" is 200 ms later there.
const idle = () => jest.advanceTimersByTime(200);

test('nothing runs before the user interacts, however long the page stays idle', () => {
  const task = jest.fn();
  whenIdle(task);
  jest.advanceTimersByTime(60_000);
  window.dispatchEvent(new FocusEvent('focusin'));
  idle();
  expect(task).not.toHaveBeenCalled();
});

test.each([
  ['pointermove', () => new Event('pointermove', { bubbles: true })],
  ['pointerdown', () => new Event('pointerdown', { bubbles: true })],
  ['keydown', () => new KeyboardEvent('keydown', { key: 'Tab', bubbles: true })],
  ['touchstart', () => new Event('touchstart', { bubbles: true })],
  ['wheel', () => new Event('wheel', { bubbles: true })],
])('after a %s on the page, tasks run once the browser is idle, each once', (_name, event) => {
  const first = jest.fn();
  const second = jest.fn();
  whenIdle(first);
  whenIdle(second);
  document.body.dispatchEvent(event());
  expect(first).not.toHaveBeenCalled();
  idle();
  expect(first).toHaveBeenCalledTimes(1);
  expect(second).toHaveBeenCalledTimes(1);
  window.dispatchEvent(new KeyboardEvent('keydown'));
  idle();
  expect(first).toHaveBeenCalledTimes(1);
});

test('a task asked for after the first interaction waits only for idle', () => {
  whenIdle(() => undefined);
  window.dispatchEvent(new Event('pointermove'));
  const later = jest.fn();
  whenIdle(later);
  expect(later).not.toHaveBeenCalled();
  idle();
  expect(later).toHaveBeenCalledTimes(1);
});

test('a cancelled task does not run, before or after the interaction', () => {
  const before = jest.fn();
  const after = jest.fn();
  whenIdle(before)();
  window.dispatchEvent(new Event('pointerdown'));
  const cancelAfter = whenIdle(after);
  cancelAfter();
  idle();
  expect(before).not.toHaveBeenCalled();
  expect(after).not.toHaveBeenCalled();
});
