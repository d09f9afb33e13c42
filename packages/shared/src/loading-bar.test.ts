import type { jest as jestTypes } from '@jest/globals';

import { finishLoadingBar, isLoadingBarRunning, startLoadingBar } from './loading-bar.ts';

jest.mock('./progress-bar.ts', () => ({ progressBar: { start: jest.fn(), done: jest.fn() } }));

// The mock above, typed as what it is.
const { start, done } = jest.requireMock<{ progressBar: { start: jestTypes.Mock; done: jestTypes.Mock } }>(
  './progress-bar.ts',
).progressBar;

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  // Let any pending finish run out so each test starts with the bar stopped.
  finishLoadingBar();
  jest.runOnlyPendingTimers();
  jest.useRealTimers();
  start.mockClear();
  done.mockClear();
});

test('starts once, however often it is started while running', () => {
  startLoadingBar();
  startLoadingBar();
  startLoadingBar();
  expect(start).toHaveBeenCalledTimes(1);
  expect(isLoadingBarRunning()).toBe(true);
});

test('completes 100 ms after finishing, not before', () => {
  startLoadingBar();
  finishLoadingBar();
  jest.advanceTimersByTime(99);
  expect(done).not.toHaveBeenCalled();
  expect(isLoadingBarRunning()).toBe(true);
  jest.advanceTimersByTime(1);
  expect(done).toHaveBeenCalledTimes(1);
  expect(isLoadingBarRunning()).toBe(false);
});

test('finishing twice completes once, 100 ms after the first finish', () => {
  startLoadingBar();
  finishLoadingBar();
  jest.advanceTimersByTime(60);
  finishLoadingBar();
  jest.advanceTimersByTime(40);
  expect(done).toHaveBeenCalledTimes(1);
  jest.advanceTimersByTime(500);
  expect(done).toHaveBeenCalledTimes(1);
});

test('starting again within the 100 ms keeps it running without a restart', () => {
  startLoadingBar();
  finishLoadingBar();
  jest.advanceTimersByTime(50);
  startLoadingBar();
  jest.advanceTimersByTime(500);
  expect(done).not.toHaveBeenCalled();
  expect(start).toHaveBeenCalledTimes(1);
  finishLoadingBar();
  jest.advanceTimersByTime(100);
  expect(done).toHaveBeenCalledTimes(1);
});

test('starts again after it completed', () => {
  startLoadingBar();
  finishLoadingBar();
  jest.advanceTimersByTime(100);
  startLoadingBar();
  expect(start).toHaveBeenCalledTimes(2);
});

test('finishing when it is not running does nothing', () => {
  finishLoadingBar();
  jest.advanceTimersByTime(1000);
  expect(done).not.toHaveBeenCalled();
});
