// The screen's wake lock while a show plays: one request at a time, whatever the tab's visibility does meanwhile,
// and every lock taken released when the show ends.
import { act, render } from '@testing-library/react';

import { useWakeLock } from './use-wake-lock.ts';

function Show({ active }: { active: boolean }) {
  useWakeLock(active);
  return null;
}

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, value: state });
  document.dispatchEvent(new Event('visibilitychange'));
}

test('a tab hidden and shown again before the lock came asks once; the lock is released when the show ends', async () => {
  const answers: ((sentinel: { release: () => Promise<void> }) => void)[] = [];
  const released: number[] = [];
  const request = jest.fn(() => new Promise<{ release: () => Promise<void> }>((resolve) => answers.push(resolve)));
  Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: { request } });
  try {
    setVisibility('visible');
    const { unmount } = render(<Show active />);
    act(() => setVisibility('hidden'));
    act(() => setVisibility('visible'));
    expect(request).toHaveBeenCalledTimes(1);
    await act(async () => {
      answers[0]?.({ release: () => Promise.resolve(void released.push(1)) });
      await Promise.resolve();
    });
    expect(request).toHaveBeenCalledTimes(1);
    unmount();
    expect(released).toEqual([1]);
  } finally {
    delete (navigator as { wakeLock?: unknown }).wakeLock;
    delete (document as { visibilityState?: unknown }).visibilityState;
  }
});
